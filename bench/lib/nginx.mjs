import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { startProcess } from "./servers.mjs";

/** The nginx binary, or null when nginx is not installed. */
export function findNginx() {
  for (const candidate of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"]) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * nginx as the machine's limit: GET /file.bin (sendfile, ranges) and PUT /upload/<name> to disk
 * (the WebDAV module writes the body to a temporary file, then renames it).
 */
export async function startNginx({ binary, dir, port, file }) {
  const www = path.join(dir, "www");
  const uploads = path.join(www, "upload");
  mkdirSync(uploads, { recursive: true });
  mkdirSync(path.join(dir, "temp"), { recursive: true });
  const served = path.join(www, "file.bin");
  try {
    linkSync(file, served);
  } catch {
    copyFileSync(file, served);
  }
  const asRoot = process.getuid?.() === 0;
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(
    conf,
    `${asRoot ? "user root root;\n" : ""}worker_processes 2;
daemon off;
master_process on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  default_type application/octet-stream;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location = /health { return 200 "ok"; }
    location /upload/ {
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 0;
      client_body_buffer_size 1m;
    }
  }
}
`,
  );
  return startProcess({
    name: "nginx",
    command: binary,
    args: ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log")],
    cwd: dir,
    env: process.env,
    logFile: path.join(dir, "stdout.log"),
    healthUrl: `http://127.0.0.1:${port}/health`,
    timeoutMs: 15_000,
  });
}
