import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A real OpenLDAP directory for tests (environment.md): `slapd -f <conf> -h ldap://127.0.0.1:<port>/`
 * on an mdb folder in a temporary directory, with a service account, people and groups (one
 * nested in another), loaded with ldapadd. With `tls`, it also listens on ldaps:// with a
 * certificate signed by a CA generated here (PEM in `caPem`), valid for 127.0.0.1; StartTLS works
 * on the ldap:// port with the same certificate.
 */
export type Slapd = {
  url: string;
  ldapsUrl: string | null;
  caPem: string | null;
  baseDN: string;
  /** Prefix of every uid and group cn of this directory (test files share one platform database). */
  prefix: string;
  /** The seeded people with their real uids, and the group names. */
  people: DirectoryPerson[];
  groups: { engineering: string; staff: string; sales: string };
  serviceDN: string;
  servicePassword: string;
  /** Adds entries (LDIF) as the directory's root. */
  add(ldif: string): Promise<void>;
  /** Applies an LDIF of changes (changetype: modify ...) as the root. */
  modify(ldif: string): Promise<void>;
  remove(dn: string): Promise<void>;
  /** Stops the server (an outage) and starts it again on the same ports and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops for good and removes the folder. */
  close(): Promise<void>;
};

export const BASE_DN = "dc=example,dc=test";
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = "root-secret";

export type DirectoryPerson = { uid: string; givenName: string; sn: string; mail: string; password: string; telephoneNumber?: string; o?: string; preferredLanguage?: string };

/** People and groups every directory starts with (uids and cns prefixed): engineering ⊂ staff (nested), sales. */
const PEOPLE: DirectoryPerson[] = [
  { uid: "alice", givenName: "Alice", sn: "Martin", mail: "alice@example.test", password: "Alice-pass-1", telephoneNumber: "+33 1 23 45 67 89", o: "Example Corp", preferredLanguage: "fr" },
  { uid: "bob", givenName: "Bob", sn: "Durand", mail: "bob@example.test", password: "Bob-pass-1" },
  { uid: "carol", givenName: "Carol", sn: "Petit", mail: "carol@example.test", password: "Carol-pass-1" },
];

export function personLdif(p: DirectoryPerson): string {
  return [
    `dn: uid=${p.uid},ou=people,${BASE_DN}`,
    "objectClass: inetOrgPerson",
    `uid: ${p.uid}`,
    `cn: ${p.givenName} ${p.sn}`,
    `givenName: ${p.givenName}`,
    `sn: ${p.sn}`,
    `mail: ${p.mail}`,
    ...(p.telephoneNumber ? [`telephoneNumber: ${p.telephoneNumber}`] : []),
    ...(p.o ? [`o: ${p.o}`] : []),
    ...(p.preferredLanguage ? [`preferredLanguage: ${p.preferredLanguage}`] : []),
    `userPassword: ${p.password}`,
    "",
  ].join("\n");
}

const groupLdif = (cn: string, members: string[]) =>
  [`dn: cn=${cn},ou=groups,${BASE_DN}`, "objectClass: groupOfNames", `cn: ${cn}`, ...members.map((m) => `member: ${m}`), ""].join("\n");

const userDn = (uid: string) => `uid=${uid},ou=people,${BASE_DN}`;
const groupDn = (cn: string) => `cn=${cn},ou=groups,${BASE_DN}`;
export { groupDn, userDn };

function seedLdif(servicePassword: string, people: DirectoryPerson[], prefix: string): string {
  const [alice, bob, carol] = people;
  return [
    [`dn: ${BASE_DN}`, "objectClass: dcObject", "objectClass: organization", "dc: example", "o: Example", ""].join("\n"),
    [`dn: ou=people,${BASE_DN}`, "objectClass: organizationalUnit", "ou: people", ""].join("\n"),
    [`dn: ou=groups,${BASE_DN}`, "objectClass: organizationalUnit", "ou: groups", ""].join("\n"),
    [`dn: ou=system,${BASE_DN}`, "objectClass: organizationalUnit", "ou: system", ""].join("\n"),
    [`dn: cn=service,ou=system,${BASE_DN}`, "objectClass: organizationalRole", "objectClass: simpleSecurityObject", "cn: service", `userPassword: ${servicePassword}`, ""].join("\n"),
    ...people.map(personLdif),
    // alice is in engineering, which is itself a member of staff: alice is in staff through it.
    groupLdif(`${prefix}engineering`, [userDn(alice.uid)]),
    groupLdif(`${prefix}staff`, [groupDn(`${prefix}engineering`), userDn(bob.uid)]),
    groupLdif(`${prefix}sales`, [userDn(carol.uid)]),
  ].join("\n");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`slapd did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A CA and a server certificate for 127.0.0.1 and localhost, made with the openssl command. */
async function makeCertificates(dir: string) {
  const ssl = (...args: string[]) => run("openssl", args, { cwd: dir });
  await ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Coffre test CA");
  await ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
  writeFileSync(path.join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  await ssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "san.ext");
}

export async function startSlapd(options: { tls?: boolean; prefix?: string } = {}): Promise<Slapd> {
  const prefix = options.prefix ?? `t${randomBytes(3).toString("hex")}`;
  const people = PEOPLE.map((p) => ({ ...p, uid: `${prefix}${p.uid}`, mail: `${prefix}${p.mail}` }));
  const dir = mkdtempSync(path.join(os.tmpdir(), "coffre-slapd-"));
  const dataDir = path.join(dir, "data");
  mkdirSync(dataDir);
  const servicePassword = "service-secret";
  if (options.tls) await makeCertificates(dir);
  const conf = [
    "include /etc/ldap/schema/core.schema",
    "include /etc/ldap/schema/cosine.schema",
    "include /etc/ldap/schema/inetorgperson.schema",
    "include /etc/ldap/schema/nis.schema",
    `pidfile ${dir}/slapd.pid`,
    `argsfile ${dir}/slapd.args`,
    "modulepath /usr/lib/ldap",
    "moduleload back_mdb",
    ...(options.tls ? [`TLSCACertificateFile ${dir}/ca.pem`, `TLSCertificateFile ${dir}/server.pem`, `TLSCertificateKeyFile ${dir}/server.key`] : []),
    "database mdb",
    "maxsize 67108864",
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    `directory ${dataDir}`,
    "index objectClass eq",
    "index uid,mail,member eq",
    // Passwords are only ever used to bind; the service account and signed-in people read the rest.
    "access to attrs=userPassword by anonymous auth by self write by * none",
    `access to * by dn.exact="cn=service,ou=system,${BASE_DN}" read by users read by * none`,
    "",
  ].join("\n");
  writeFileSync(path.join(dir, "slapd.conf"), conf);

  const port = await freePort();
  const tlsPort = options.tls ? await freePort() : null;
  const urls = [`ldap://127.0.0.1:${port}/`, ...(tlsPort ? [`ldaps://127.0.0.1:${tlsPort}/`] : [])];
  let child: ChildProcess | null = null;
  let output = "";

  const start = async () => {
    output = "";
    // -d 0: stay in the foreground (a child we can stop), logging nothing but errors.
    child = spawn("/usr/sbin/slapd", ["-f", path.join(dir, "slapd.conf"), "-h", urls.join(" "), "-d", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const exited = new Promise<never>((_, reject) => child!.once("exit", (code) => reject(new Error(`slapd exited (${code}): ${output}`))));
    await Promise.race([Promise.all([waitForPort(port, 15_000), tlsPort ? waitForPort(tlsPort, 15_000) : null]), exited]);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
      setTimeout(() => running.kill("SIGKILL"), 5000).unref();
    });
  };

  const ldapTool = async (tool: string, args: string[], input?: string) => {
    const proc = execFile(tool, ["-x", "-H", urls[0], "-D", ROOT_DN, "-w", ROOT_PASSWORD, ...args]);
    let err = "";
    proc.stderr?.on("data", (d) => (err += d));
    if (input !== undefined) proc.stdin?.end(input);
    const code = await new Promise<number | null>((resolve) => proc.once("exit", resolve));
    if (code !== 0) throw new Error(`${tool} failed (${code}): ${err}`);
  };

  await start();
  await ldapTool("ldapadd", [], seedLdif(servicePassword, people, prefix));

  return {
    url: urls[0].replace(/\/$/, ""),
    ldapsUrl: tlsPort ? `ldaps://127.0.0.1:${tlsPort}` : null,
    caPem: options.tls ? readFileSync(path.join(dir, "ca.pem"), "utf8") : null,
    baseDN: BASE_DN,
    prefix,
    people,
    groups: { engineering: `${prefix}engineering`, staff: `${prefix}staff`, sales: `${prefix}sales` },
    serviceDN: `cn=service,ou=system,${BASE_DN}`,
    servicePassword,
    add: (ldif) => ldapTool("ldapadd", [], ldif),
    modify: (ldif) => ldapTool("ldapmodify", [], ldif),
    remove: (dn) => ldapTool("ldapdelete", [dn]),
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
