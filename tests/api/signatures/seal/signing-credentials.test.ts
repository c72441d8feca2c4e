import { createDecipheriv, createPrivateKey, createPublicKey, hkdfSync, X509Certificate } from "node:crypto";
import { eq } from "drizzle-orm";
import forge from "node-forge";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { platformConfig } from "@/db/schema";
import { issueSigningCertificate } from "@/lib/server/signatures/seal/create-credentials";
import { forgetSigningCredentials, getSigningCredentials, signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";

type Sealed = { alg: string; iv: string; tag: string; data: string };
type Stored = { version: number; ca_certificate: string; ca_key: Sealed; signing_certificate: string; signing_key: Sealed; created_at: string };

const YEAR = 365 * 86_400_000;

async function storedRow(): Promise<Stored> {
  const db = await getDb();
  const [row] = await db.select().from(platformConfig).where(eq(platformConfig.key, "signing_credentials"));
  return row.value as Stored;
}

/** Opens a stored key the way the brief specifies it, independently of the code under test. */
function openKey(sealed: Sealed, which: string) {
  const key = Buffer.from(hkdfSync("sha256", process.env.AUTH_SECRET!, Buffer.alloc(0), "coffre signing key", 32));
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64")).setAAD(Buffer.from(`signing_credentials:${which}`));
  decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
  const der = Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]);
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

const samePublicKey = (a: ReturnType<typeof createPublicKey>, b: ReturnType<typeof createPublicKey>) =>
  a.export({ type: "spki", format: "der" }).equals(b.export({ type: "spki", format: "der" }));

afterEach(() => forgetSigningCredentials());

describe("signing credentials in the database", () => {
  it("makes a CA and a signing certificate at first use, the private keys encrypted under the server secret", async () => {
    const db = await getDb();
    const pem = await signingCaPem(db);
    const stored = await storedRow();
    expect(stored.version).toBe(1);
    expect(stored.ca_certificate).toBe(pem);
    expect(JSON.stringify(stored)).not.toContain("PRIVATE KEY");
    for (const sealed of [stored.ca_key, stored.signing_key]) {
      expect(sealed.alg).toBe("A256GCM");
      expect(Buffer.from(sealed.iv, "base64")).toHaveLength(12);
      expect(Buffer.from(sealed.tag, "base64")).toHaveLength(16);
    }

    const ca = new X509Certificate(stored.ca_certificate);
    expect(ca.subject).toBe("CN=Coffre signing CA\nO=Coffre");
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(ca.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    expect(Date.parse(ca.validTo) - Date.parse(ca.validFrom)).toBeGreaterThan(10 * YEAR - 86_400_000);

    const signing = new X509Certificate(stored.signing_certificate);
    expect(signing.subject).toBe("CN=Coffre document seal\nO=Coffre");
    expect(signing.ca).toBe(false);
    expect(signing.checkIssued(ca)).toBe(true);
    expect(signing.verify(ca.publicKey)).toBe(true);
    expect(Date.parse(signing.validTo) - Date.parse(signing.validFrom)).toBeGreaterThan(3 * YEAR - 86_400_000);
    expect(Date.parse(signing.validTo) - Date.parse(signing.validFrom)).toBeLessThan(3 * YEAR + 86_400_000);
    expect(signing.keyUsage).toEqual(expect.arrayContaining(["1.3.6.1.5.5.7.3.4", "1.3.6.1.5.5.7.3.36"]));
    const usage = forge.pki.certificateFromPem(stored.signing_certificate).getExtension("keyUsage") as Record<string, unknown>;
    expect(usage).toMatchObject({ critical: true, digitalSignature: true, nonRepudiation: true, keyCertSign: false });

    // The stored bytes are not the key itself, which is nowhere in the row in clear.
    for (const [sealed, which] of [[stored.signing_key, "signing"], [stored.ca_key, "ca"]] as const) {
      const der = openKey(sealed, which).export({ type: "pkcs8", format: "der" });
      expect(Buffer.from(sealed.data, "base64").equals(der)).toBe(false);
      expect(JSON.stringify(stored)).not.toContain(der.subarray(0, 64).toString("base64"));
    }
    // Each stored key is the private half of its certificate.
    expect(samePublicKey(createPublicKey(openKey(stored.signing_key, "signing")), signing.publicKey)).toBe(true);
    expect(samePublicKey(createPublicKey(openKey(stored.ca_key, "ca")), ca.publicKey)).toBe(true);
  }, 120_000); // two RSA 3072 keys on a busy machine

  it("loads the same credentials again instead of making new ones, also when asked twice at once", async () => {
    const db = await getDb();
    const first = await signingCaPem(db);
    const signingBefore = (await storedRow()).signing_certificate;
    forgetSigningCredentials();
    const [a, b] = await Promise.all([getSigningCredentials(db), getSigningCredentials(db)]);
    expect(a).toBe(b);
    expect(a.caPem).toBe(first);
    expect(a.chain[0].toString()).toBe(signingBefore);
    expect((await storedRow()).ca_certificate).toBe(first);
  });

  it("issues a new signing certificate from the same CA when the stored one is about to end", async () => {
    const db = await getDb();
    await signingCaPem(db);
    const stored = await storedRow();
    const ca = new X509Certificate(stored.ca_certificate);
    // A certificate issued 3 years minus 10 days ago: it ends in 10 days.
    const old = issueSigningCertificate(stored.ca_certificate, openKey(stored.ca_key, "ca"), createPublicKey(openKey(stored.signing_key, "signing")), new Date(Date.now() - 3 * YEAR + 10 * 86_400_000));
    await db.update(platformConfig).set({ value: { ...stored, signing_certificate: old } }).where(eq(platformConfig.key, "signing_credentials"));
    forgetSigningCredentials();

    const renewed = await getSigningCredentials(db);
    const after = await storedRow();
    expect(renewed.caPem).toBe(stored.ca_certificate);
    expect(after.ca_certificate).toBe(stored.ca_certificate);
    expect(after.signing_certificate).not.toBe(old);
    expect(renewed.chain[0].toString()).toBe(after.signing_certificate);
    expect(Date.parse(renewed.chain[0].validTo)).toBeGreaterThan(Date.now() + 2 * YEAR);
    expect(renewed.chain[0].checkIssued(ca)).toBe(true);
    expect(samePublicKey(createPublicKey(openKey(after.signing_key, "signing")), renewed.chain[0].publicKey)).toBe(true);
  }, 120_000);

  it("does not keep credentials made inside a transaction that is rolled back", async () => {
    const db = await getDb();
    const kept = await signingCaPem(db);
    forgetSigningCredentials();
    let madeInside = "";
    await db
      .transaction(async (tx) => {
        await tx.delete(platformConfig).where(eq(platformConfig.key, "signing_credentials"));
        madeInside = await signingCaPem(tx);
        tx.rollback();
      })
      .catch((error: Error) => expect(error.message).toMatch(/rollback/i));
    expect(madeInside).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(madeInside).not.toBe(kept);
    // The next caller reads what the database holds, not what the rolled-back transaction made.
    expect(await signingCaPem(db)).toBe(kept);
    expect((await storedRow()).ca_certificate).toBe(kept);
  }, 120_000);

  it("refuses to use a key stored under another server secret", async () => {
    const db = await getDb();
    await signingCaPem(db);
    forgetSigningCredentials();
    const secret = process.env.AUTH_SECRET;
    process.env.AUTH_SECRET = "another-secret-another-secret-another";
    try {
      await expect(getSigningCredentials(db)).rejects.toThrow(/cannot be decrypted/);
    } finally {
      process.env.AUTH_SECRET = secret;
    }
    forgetSigningCredentials();
    await expect(getSigningCredentials(db)).resolves.toMatchObject({ caPem: (await storedRow()).ca_certificate });
  });
});
