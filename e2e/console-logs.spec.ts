import { expect, test } from "@playwright/test";
import { createUser, screenshot, signIn } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 8);

test("a French administrator reads a log entry in French and filters the log by person", async ({ page, request }) => {
  test.setTimeout(120_000);
  // Grace makes a folder through the API: a sign-in and a creation in the log under her name.
  const lastname = `Hopper${suffix()}`;
  const grace = await createUser(request, { firstname: "Grace", lastname });
  const auth = await request.post("/api/auth", { data: { user: grace.login, password: grace.password } });
  expect(auth.ok()).toBe(true);
  const headers = { Authorization: `Bearer ${(await auth.json()).token}` };
  const roots = await (await request.get("/api/roots", { headers })).json();
  const folderName = `Rapports ${suffix()}`;
  const created = await request.post("/api/folder", { headers, data: { name: folderName, parent_id: roots.find((r: { type: string }) => r.type === "private").id } });
  expect(created.status()).toBe(201);
  const folder = await created.json();
  // The French administrator: an account whose language is French, as the account page sets it.
  const marie = await createUser(request, { firstname: "Marie", lastname: `Curie${suffix()}`, role: 3, language: "fr" });

  await signIn(page, marie.password, marie.login);
  await expect(page).toHaveURL("/");
  await page.goto("/admin/logs");
  await expect(page.getByRole("heading", { level: 1, name: "Journaux" })).toBeVisible();

  // The entry reads in French, from its fields: type and status as labels, the folder as a link.
  const sentence = `Grace ${lastname} a créé le dossier ${folderName}`;
  const entry = page.getByRole("row").filter({ hasText: sentence });
  await expect(entry).toBeVisible();
  await expect(entry.getByText("Création", { exact: true })).toBeVisible();
  await expect(entry.getByText("Réussi", { exact: true })).toBeVisible();
  await expect(entry.getByRole("link", { name: folderName })).toHaveAttribute("href", `/files/${folder.id}`);
  await expect(page.getByText("ADMLLOG_INSERT")).toHaveCount(0);

  // Filter by person with the people picker: only Grace's entries stay (her sign-in and her folder).
  const people = page.getByRole("group", { name: "Personnes" });
  await people.getByLabel("Ajouter une personne").fill(lastname);
  await people.getByRole("button", { name: new RegExp(lastname) }).click();
  await expect(people.getByRole("button", { name: `Retirer Grace ${lastname}` })).toBeVisible();
  await page.getByRole("button", { name: "Filtrer", exact: true }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("row").filter({ hasText: `Connexion de Grace ${lastname}` })).toBeVisible();
  await expect(entry).toBeVisible();
  await screenshot(page, "console-logs-fr");

  // The entry in full: the sentence in French, and the text the server stored kept as it was.
  await entry.getByRole("button", { name: /Détails de l’entrée/ }).click();
  const detail = page.getByRole("dialog");
  await expect(detail.getByText(sentence)).toBeVisible();
  await expect(detail.getByText(`Created folder ${folderName}`, { exact: false })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();

  // From the entry, only this folder's entries; the object filter shows what it holds.
  await entry.getByRole("button", { name: `Afficher seulement les entrées sur ${folderName}` }).click();
  await expect(page.getByLabel("Type d’objet")).toHaveValue("folder");
  await expect(page.getByLabel("Id de l’objet")).toHaveValue(String(folder.id));
  await expect(page.getByRole("row")).toHaveCount(2);

  // On a phone: each entry is a card that still reads as a sentence.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(entry).toBeVisible();
  await screenshot(page, "console-logs-fr-390", { fullPage: true });
});
