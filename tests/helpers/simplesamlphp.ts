import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

// A real SAML 2.0 identity provider for the tests: SimpleSAMLphp from Debian (package
// `simplesamlphp` with `php8.2`), served by PHP's built-in server on a free port with a
// configuration folder of its own (environment.md: absolute `baseurlpath`, `enable.saml20-idp`,
// `exampleauth` users, `session.cookie.secure` false). Nothing of it is mocked.

const WWW = "/usr/share/simplesamlphp/www";

export type SamlTestUser = { username: string; password: string; attributes: Record<string, string[]> };

/** A service provider as the IdP knows it (saml20-sp-remote). */
export type SamlTestSp = {
  entityId: string;
  acsUrl: string;
  /** Seconds an assertion stays valid (SimpleSAMLphp's `assertion.lifetime`, 300 by default). */
  assertionLifetime?: number;
  /** false: the assertion goes unsigned (`saml20.sign.assertion`). */
  signAssertion?: boolean;
  /** false: the response goes unsigned (`saml20.sign.response`). */
  signResponse?: boolean;
};

export type SimpleSamlPhp = {
  url: string;
  /** The IdP's metadata address: what a `saml2` provider's `discovery` names. */
  metadataUrl: string;
  entityId: string;
  /** The IdP-initiated sign-in address for a service provider (SimpleSAMLphp's `spentityid`). */
  idpInitiatedUrl(spEntityId: string, relayState?: string): string;
  /** Replaces the service providers the IdP accepts (read again on every request: OPcache is off). */
  setServiceProviders(sps: SamlTestSp[]): void;
  /** The IdP's signing certificate, PEM. */
  certificate: string;
  stop(): Promise<void>;
};

const php = (value: unknown): string => {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(php).join(", ")}]`;
  return `[${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${php(k)} => ${php(v)}`)
    .join(", ")}]`;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startSimpleSamlPhp(options: { users: SamlTestUser[]; sps?: SamlTestSp[] }): Promise<SimpleSamlPhp> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coffre-ssp-"));
  for (const sub of ["cert", "log", "data", "tmp", "metadata", "sessions"]) mkdirSync(path.join(dir, sub));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2", "-subj", "/CN=simplesamlphp-test-idp", "-keyout", path.join(dir, "cert/idp.key"), "-out", path.join(dir, "cert/idp.crt")], { stdio: "ignore" });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  writeFileSync(
    path.join(dir, "config.php"),
    `<?php\n$config = ${php({
      baseurlpath: `${url}/`,
      certdir: `${dir}/cert/`,
      loggingdir: `${dir}/log/`,
      datadir: `${dir}/data/`,
      tempdir: `${dir}/tmp/`,
      metadatadir: `${dir}/metadata/`,
      attributenamemapdir: "/etc/simplesamlphp/attributemap/",
      secretsalt: randomBytes(16).toString("hex"),
      "auth.adminpassword": randomBytes(16).toString("hex"),
      technicalcontact_name: "Coffre tests",
      technicalcontact_email: "tests@example.test",
      timezone: "UTC",
      "enable.saml20-idp": true,
      "module.enable": { exampleauth: true, core: true, saml: true, admin: true },
      "store.type": "phpsession",
      "session.phpsession.savepath": `${dir}/sessions`,
      "session.cookie.secure": false,
      "session.cookie.samesite": "Lax",
      "language.cookie.secure": false,
      "language.cookie.samesite": "Lax",
      "logging.handler": "file",
      "logging.logfile": "simplesamlphp.log",
      "logging.level": 4,
      "admin.checkforupdates": false,
      "admin.protectmetadata": false,
      production: true,
      showerrors: true,
      errorreporting: false,
    })};\n`,
  );
  writeFileSync(
    path.join(dir, "authsources.php"),
    `<?php\n$config = ${php({
      admin: ["core:AdminPassword"],
      users: {
        0: "exampleauth:UserPass",
        ...Object.fromEntries(options.users.map((u) => [`${u.username}:${u.password}`, { uid: [u.username], ...u.attributes }])),
      },
    })};\n`,
  );
  writeFileSync(
    path.join(dir, "metadata/saml20-idp-hosted.php"),
    `<?php\n$metadata['__DYNAMIC:1__'] = ${php({
      host: "__DEFAULT__",
      privatekey: "idp.key",
      certificate: "idp.crt",
      auth: "users",
      "signature.algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      "attributes.NameFormat": "urn:oasis:names:tc:SAML:2.0:attrname-format:basic",
      NameIDFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
    })};\n`,
  );
  const setServiceProviders = (sps: SamlTestSp[]) => {
    const entries = sps.map(
      (sp) =>
        `$metadata[${php(sp.entityId)}] = ${php({
          AssertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: sp.acsUrl, index: 0 }],
          NameIDFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
          "simplesaml.nameidattribute": "uid",
          ...(sp.assertionLifetime !== undefined ? { "assertion.lifetime": sp.assertionLifetime } : {}),
          ...(sp.signAssertion !== undefined ? { "saml20.sign.assertion": sp.signAssertion } : {}),
          ...(sp.signResponse !== undefined ? { "saml20.sign.response": sp.signResponse } : {}),
        })};`,
    );
    writeFileSync(path.join(dir, "metadata/saml20-sp-remote.php"), `<?php\n${entries.join("\n")}\n`);
  };
  setServiceProviders(options.sps ?? []);

  const child: ChildProcess = spawn("php", ["-d", "opcache.enable=0", "-S", `127.0.0.1:${port}`, "-t", WWW], {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: dir, PHP_CLI_SERVER_WORKERS: "2" },
    stdio: ["ignore", "ignore", "pipe"],
    // Its own process group: PHP's server forks workers, and stop() ends them all.
    detached: true,
  });
  // Should the test process end without stop(), the server ends with it.
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {}
  };
  process.once("exit", killGroup);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const metadataUrl = `${url}/saml2/idp/metadata.php`;
  await waitFor(async () => (await fetch(metadataUrl)).ok, () => `SimpleSAMLphp did not start on ${url}: ${stderr}`);

  return {
    url,
    metadataUrl,
    entityId: metadataUrl,
    certificate: readFileSync(path.join(dir, "cert/idp.crt"), "utf8"),
    idpInitiatedUrl: (spEntityId, relayState) => {
      const target = new URL(`${url}/saml2/idp/SSOService.php`);
      target.searchParams.set("spentityid", spEntityId);
      if (relayState) target.searchParams.set("RelayState", relayState);
      return target.toString();
    },
    setServiceProviders,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        killGroup();
        await exited;
      }
      process.off("exit", killGroup);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitFor(check: () => Promise<boolean>, failure: () => string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
