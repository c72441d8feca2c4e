import "server-only";
import { createCipheriv, createDecipheriv, createPrivateKey, hkdfSync, type KeyObject, randomBytes, sign, verify, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { P12Signer, type Signer } from "@libpdf/core";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { platformConfig } from "@/db/schema";
import { getAuthSecret } from "@/lib/server/auth/secret";
import { createSigningCredentials, issueSigningCertificate, rsaKeyPair } from "./create-credentials";

const KEY = "signing_credentials";
const RENEW_BEFORE_MS = 30 * 86_400_000;

/** What sealPdf signs with: the key, its certificate and the chain above it (top last). */
export type SigningCredentials = {
  signer: Signer;
  /** The signing certificate, then each issuer up to the top of the chain. */
  chain: X509Certificate[];
  /** The top of the chain, as published at GET /api/signatures/certificate. */
  caPem: string;
};

type Sealed = { alg: "A256GCM"; iv: string; tag: string; data: string };
type Stored = {
  version: 1;
  ca_certificate: string;
  ca_key: Sealed;
  signing_certificate: string;
  signing_key: Sealed;
  created_at: string;
};

let memo: { source: string; credentials: Promise<SigningCredentials>; renewAt: number } | undefined;

/** The platform's CA certificate (PEM). Created at first use, or loaded from SIGNING_P12. */
export async function signingCaPem(db: DbOrTx): Promise<string> {
  return (await getSigningCredentials(db)).caPem;
}

/**
 * The sealing key, memoised per process: from the PKCS#12 file SIGNING_P12 (password
 * SIGNING_P12_PASSWORD) when set, otherwise the pair kept in platform_config, made at first use.
 */
export function getSigningCredentials(db: DbOrTx): Promise<SigningCredentials> {
  const p12 = process.env.SIGNING_P12?.trim();
  const source = p12 ? `p12:${p12}` : "database";
  if (memo && memo.source === source && Date.now() < memo.renewAt) return memo.credentials;
  const loaded = p12 ? loadP12(p12, process.env.SIGNING_P12_PASSWORD ?? "") : loadFromDatabase(db);
  const credentials = loaded.then((l) => l.credentials);
  const entry = { source, credentials, renewAt: Number.POSITIVE_INFINITY };
  memo = entry;
  loaded.then(
    ({ credentials: c, wroteInTransaction }) => {
      // A row written inside the caller's transaction may yet be rolled back: read it again next time.
      if (wroteInTransaction) return memo === entry && (memo = undefined);
      // Looked at again when the certificate nears its end; at most hourly once nothing can renew it.
      entry.renewAt = Math.max(Date.parse(c.chain[0].validTo) - RENEW_BEFORE_MS, Date.now() + 3_600_000);
    },
    () => memo === entry && (memo = undefined),
  );
  return credentials;
}

type Loaded = { credentials: SigningCredentials; wroteInTransaction: boolean };

/** A Drizzle transaction (as opposed to the database handle) has rollback(). */
const isTransaction = (db: DbOrTx) => typeof (db as { rollback?: unknown }).rollback === "function";

/** Drops the memoised credentials (tests switch between the database and SIGNING_P12). */
export function forgetSigningCredentials(): void {
  memo = undefined;
}

async function loadP12(file: string, password: string): Promise<Loaded> {
  const bytes = await readFile(file).catch((error: Error) => {
    throw new Error(`SIGNING_P12: cannot read ${file}: ${error.message}`);
  });
  const p12 = await P12Signer.create(new Uint8Array(bytes), password).catch((error: Error) => {
    throw new Error(`SIGNING_P12: cannot open ${file} (wrong SIGNING_P12_PASSWORD?): ${error.message}`);
  });
  // P12Signer takes the file's first certificate as the signer's; files do not all put it first,
  // so the certificate is the one whose public key verifies a signature made with the key.
  const certificates = [p12.certificate, ...p12.certificateChain].map((der) => new X509Certificate(der));
  const probe = randomBytes(32);
  const signature = await p12.sign(new Uint8Array(probe), "SHA-256");
  const leaf = certificates.find((c) => {
    try {
      return verify("sha256", probe, p12.keyType === "EC" ? { key: c.publicKey, dsaEncoding: "der" } : c.publicKey, signature);
    } catch {
      return false;
    }
  });
  if (!leaf) throw new Error(`SIGNING_P12: no certificate in ${file} matches its private key`);
  const chain = orderChain(leaf, certificates);
  const signer: Signer = {
    certificate: new Uint8Array(leaf.raw),
    certificateChain: chain.slice(1).map((c) => new Uint8Array(c.raw)),
    keyType: p12.keyType,
    signatureAlgorithm: p12.signatureAlgorithm,
    sign: (data, algorithm) => p12.sign(data, algorithm),
  };
  return { credentials: { signer, chain, caPem: chain.at(-1)!.toString() }, wroteInTransaction: false };
}

/** The signing certificate, then its issuer, then that one's issuer, as far as the file goes. */
function orderChain(leaf: X509Certificate, others: X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  const pool = others.filter((c) => !Buffer.from(c.raw).equals(Buffer.from(leaf.raw)));
  for (;;) {
    const last = chain.at(-1)!;
    if (last.checkIssued(last)) break; // self-signed: the top
    const issuer = pool.find((c) => last.checkIssued(c) && last.verify(c.publicKey));
    if (!issuer) break;
    chain.push(issuer);
    pool.splice(pool.indexOf(issuer), 1);
  }
  return chain;
}

async function loadFromDatabase(db: DbOrTx): Promise<Loaded> {
  const box = await keyBox();
  let stored = await readStored(db);
  let wrote = false;
  if (!stored) {
    wrote = true;
    const created = await createSigningCredentials();
    const value: Stored = {
      version: 1,
      ca_certificate: created.ca.certificate,
      ca_key: box.seal(created.ca.privateKey, "ca"),
      signing_certificate: created.signing.certificate,
      signing_key: box.seal(created.signing.privateKey, "signing"),
      created_at: new Date().toISOString(),
    };
    // Two processes may create at once: the first row wins and both read it back (as secret.ts).
    await db.insert(platformConfig).values({ key: KEY, value }).onConflictDoNothing();
    stored = (await readStored(db))!;
  }
  const ends = Date.parse(new X509Certificate(stored.signing_certificate).validTo);
  const caEnds = Date.parse(new X509Certificate(stored.ca_certificate).validTo);
  // Renewed near its end, if the CA outlives it (a new certificate never outlives its CA).
  if (ends - RENEW_BEFORE_MS < Date.now() && caEnds > ends + 86_400_000) {
    stored = await renewSigningCertificate(db, stored, box);
    wrote = true;
  } else if (ends < Date.now()) {
    console.warn(`[coffre] the platform's signing certificate ended on ${new Date(ends).toISOString()} and its CA cannot renew it: seals will not validate. Set SIGNING_P12, or delete platform_config "${KEY}" to make a new CA.`);
  }
  const privateKey = box.open(stored.signing_key, "signing");
  const chain = [new X509Certificate(stored.signing_certificate), new X509Certificate(stored.ca_certificate)];
  return { credentials: { signer: keySigner(privateKey, chain), chain, caPem: chain[1].toString() }, wroteInTransaction: wrote && isTransaction(db) };
}

/** A new key and certificate from the same CA, so seals made after the old one's end stay trusted. */
async function renewSigningCertificate(db: DbOrTx, stored: Stored, box: KeyBox): Promise<Stored> {
  const keys = await rsaKeyPair();
  const certificate = issueSigningCertificate(stored.ca_certificate, box.open(stored.ca_key, "ca"), keys.publicKey);
  const renewed: Stored = { ...stored, signing_certificate: certificate, signing_key: box.seal(keys.privateKey, "signing") };
  // Only if no other process renewed it meanwhile; then everyone reads the same row.
  await db
    .update(platformConfig)
    .set({ value: renewed, updatedAt: new Date() })
    .where(sql`${platformConfig.key} = ${KEY} and ${platformConfig.value}->>'signing_certificate' = ${stored.signing_certificate}`);
  return (await readStored(db))!;
}

async function readStored(db: DbOrTx): Promise<Stored | null> {
  const [row] = await db.select().from(platformConfig).where(eq(platformConfig.key, KEY));
  return row ? (row.value as Stored) : null;
}

/** A libpdf Signer over a node KeyObject: the CMS signed attributes are signed here. */
export function keySigner(privateKey: KeyObject, chain: X509Certificate[]): Signer {
  const isEc = privateKey.asymmetricKeyType === "ec";
  return {
    certificate: new Uint8Array(chain[0].raw),
    certificateChain: chain.slice(1).map((c) => new Uint8Array(c.raw)),
    keyType: isEc ? "EC" : "RSA",
    signatureAlgorithm: isEc ? "ECDSA" : "RSASSA-PKCS1-v1_5",
    async sign(data, algorithm) {
      const digest = algorithm.replace("-", "").toLowerCase(); // SHA-256 → sha256
      return new Uint8Array(sign(digest, data, isEc ? { key: privateKey, dsaEncoding: "der" } : privateKey));
    },
  };
}

type KeyBox = { seal(key: KeyObject, which: string): Sealed; open(sealed: Sealed, which: string): KeyObject };

/** AES-256-GCM under a key derived from the server secret (HKDF-SHA256, info "coffre signing key"). */
async function keyBox(): Promise<KeyBox> {
  const secret = await getAuthSecret();
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "coffre signing key", 32));
  const aad = (which: string) => Buffer.from(`${KEY}:${which}`);
  return {
    seal(privateKey, which) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(aad(which));
      const data = Buffer.concat([cipher.update(privateKey.export({ type: "pkcs8", format: "der" })), cipher.final()]);
      return { alg: "A256GCM", iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), data: data.toString("base64") };
    },
    open(sealed, which) {
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64")).setAAD(aad(which));
        decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
        const der = Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]);
        return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
      } catch {
        throw new Error("The platform's signing key cannot be decrypted: AUTH_SECRET differs from the one it was stored under");
      }
    },
  };
}
