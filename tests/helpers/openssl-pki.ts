/**
 * A real PKI for long-term seals, made with the openssl command in a temporary directory: a root
 * CA, a seal certificate and a TSA certificate it issued (both naming an OCSP responder in their
 * AIA), OpenSSL's own timestamp authority (`openssl ts -reply`) and OCSP responder (`openssl ocsp
 * -index … -reqin … -respout`), each behind a few lines of Node HTTP that hand every request to
 * the command. `mode` turns a service into a broken one (garbage, a replayed answer, an HTTP 500,
 * silence).
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const openssl = (args: string[], cwd: string) => run("openssl", args, { cwd, maxBuffer: 16 * 1024 * 1024 });

export type ServiceMode = "ok" | "garbage" | "replay" | "error" | "silent";

export type TestPki = {
  dir: string;
  tsaUrl: string;
  ocspUrl: string;
  /** The seal's key and chain as a PKCS#12 file (password "p12 secret"). */
  p12: string;
  /** The same for the seal certificate with a CRL distribution point. */
  crlP12: string;
  rootPem: string;
  tsa: { mode: ServiceMode; requests: number };
  /** The OCSP responder, which also serves the CRL (GET). */
  ocsp: { mode: ServiceMode; requests: number };
  /** Marks a certificate revoked in the responder's index (and the next CRL). */
  revoke(which: Name): Promise<void>;
  close(): Promise<void>;
};

type Name = "seal" | "tsa" | "crlseal";
const NAMES = ["seal", "tsa", "crlseal"] as const;
const SERIALS = { seal: "1001", tsa: "2001", crlseal: "3001" } as const;
const SUBJECTS = { seal: "/CN=Test long-term seal/O=Coffre tests", tsa: "/CN=Test TSA/O=Coffre tests", crlseal: "/CN=Test CRL seal/O=Coffre tests" } as const;

/** An HTTP service answering each request with what `answer` makes of its method and body. */
async function service(state: { mode: ServiceMode; requests: number }, type: string, answer: (body: Buffer, method: string) => Promise<Buffer>): Promise<{ server: Server; url: string }> {
  let last: Buffer | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      state.requests += 1;
      if (state.mode === "silent") return; // never answers
      try {
        if (state.mode === "error") throw new Error("down for maintenance");
        const out = state.mode === "garbage" ? Buffer.from("<html>not a DER answer</html>") : state.mode === "replay" && last ? last : await answer(Buffer.concat(chunks), req.method ?? "GET");
        if (state.mode === "ok") last = out;
        res.writeHead(200, { "Content-Type": type, "Content-Length": out.length }).end(out);
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

export async function createTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "coffre-pki-"));
  const ssl = (...args: string[]) => openssl(args, dir);
  const tsaState = { mode: "ok" as ServiceMode, requests: 0 };
  const ocspState = { mode: "ok" as ServiceMode, requests: 0 };
  let counter = 0;
  const temp = () => path.join(dir, `io-${++counter}`);

  const ocsp = await service(ocspState, "application/ocsp-response", async (body, method) => {
    if (method === "GET") {
      const [pem, der] = [temp(), temp()];
      await ssl("ca", "-gencrl", "-config", "ca.cnf", "-keyfile", "root.key", "-cert", "root.pem", "-out", pem);
      await ssl("crl", "-in", pem, "-outform", "DER", "-out", der);
      return readFile(der);
    }
    const [reqin, respout] = [temp(), temp()];
    await writeFile(reqin, body);
    await ssl("ocsp", "-index", "index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key", "-reqin", reqin, "-respout", respout, "-nmin", "10");
    return readFile(respout);
  });
  const tsa = await service(tsaState, "application/timestamp-reply", async (body) => {
    const [query, reply] = [temp(), temp()];
    await writeFile(query, body);
    await ssl("ts", "-reply", "-config", "tsa.cnf", "-queryfile", query, "-out", reply);
    return readFile(reply);
  });

  await ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "root.key", "-out", "root.pem", "-days", "30", "-subj", "/CN=Test Root CA/O=Coffre tests",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  const issue = async (name: Name, usage: string) => {
    const where = name === "crlseal" ? `crlDistributionPoints=URI:${ocsp.url}root.crl` : `authorityInfoAccess=OCSP;URI:${ocsp.url}`;
    await writeFile(path.join(dir, `${name}.ext`), `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=${usage}\n${where}\n`);
    await ssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-subj", SUBJECTS[name], "-out", `${name}.csr`);
    await ssl("x509", "-req", "-in", `${name}.csr`, "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", `0x${SERIALS[name]}`, "-days", "30", "-extfile", `${name}.ext`, "-out", `${name}.pem`);
  };
  await issue("seal", "emailProtection");
  await issue("tsa", "critical,timeStamping");
  await issue("crlseal", "emailProtection");
  for (const name of ["seal", "crlseal"]) {
    await ssl("pkcs12", "-export", "-inkey", `${name}.key`, "-in", `${name}.pem`, "-certfile", "root.pem", "-out", `${name}.p12`, "-passout", "pass:p12 secret");
  }

  const expiry = "351231235959Z";
  const index = (revoked: Set<string>) =>
    NAMES.map((n) => (revoked.has(n) ? `R\t${expiry}\t260101000000Z\t${SERIALS[n]}\tunknown\t${SUBJECTS[n]}` : `V\t${expiry}\t\t${SERIALS[n]}\tunknown\t${SUBJECTS[n]}`)).join("\n") + "\n";
  const revoked = new Set<string>();
  await writeFile(path.join(dir, "index.txt"), index(revoked));
  await writeFile(path.join(dir, "index.txt.attr"), "unique_subject = no\n");
  await writeFile(path.join(dir, "tsaserial"), "01\n");
  await writeFile(path.join(dir, "crlnumber"), "01\n");
  await writeFile(path.join(dir, "ca.cnf"), ["[ ca ]", "default_ca = test_ca", "[ test_ca ]", `database = ${path.join(dir, "index.txt")}`, `crlnumber = ${path.join(dir, "crlnumber")}`, "default_md = sha256", "default_crl_days = 1", ""].join("\n"));
  await writeFile(
    path.join(dir, "tsa.cnf"),
    [
      "[ tsa ]", "default_tsa = tsa_config", "[ tsa_config ]", `serial = ${path.join(dir, "tsaserial")}`, `signer_cert = ${path.join(dir, "tsa.pem")}`,
      `certs = ${path.join(dir, "root.pem")}`, `signer_key = ${path.join(dir, "tsa.key")}`, "signer_digest = sha256", "default_policy = 1.2.3.4.1",
      "other_policies = 1.2.3.4.5", "digests = sha256, sha384, sha512", "accuracy = secs:1", "ordering = no", "tsa_name = yes", "ess_cert_id_chain = no", "ess_cert_id_alg = sha256", "",
    ].join("\n"),
  );

  return {
    dir,
    tsaUrl: tsa.url,
    ocspUrl: ocsp.url,
    p12: path.join(dir, "seal.p12"),
    crlP12: path.join(dir, "crlseal.p12"),
    rootPem: await readFile(path.join(dir, "root.pem"), "utf8"),
    tsa: tsaState,
    ocsp: ocspState,
    async revoke(which) {
      revoked.add(which);
      await writeFile(path.join(dir, "index.txt"), index(revoked));
    },
    async close() {
      await Promise.all([tsa.server, ocsp.server].map((s) => new Promise((resolve) => (s.close(resolve), s.closeAllConnections()))));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
