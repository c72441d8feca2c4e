// Extracted texts of the scaling seed (issue 33): of the population's files, 10% office documents
// (x.id % 100 in 0..9: 6 in 10 unpaged like a docx or an xlsx, 4 in 10 slides separated by '\f'
// like a pptx), 5% OCR'd scans (10..14: 1 to 4 pages separated by '\f'), 1% PDFs (30, the
// earlier seed's one-line texts). Office documents and scans get 150 to 500 words drawn from a
// vocabulary of their language (english, french, german, spanish, italian, portuguese, or
// simple), so the index holds realistic lexemes; the content-search word "kiwifruit" is in 1 file
// in 5,000 (the PDFs as before, an office document, a scan on its second page, word 121), and in
// 3 in 1,024 of the texts of the folders shared with the bench user (seed-scale.mjs: folder id % 100
// = 7), so that the search the bench user makes finds some (a score at 1,000,000 files) and pays
// for their snippets.

const VOCABULARY = {
  english: "invoice payment contract budget annual report meeting quarterly customer supplier delivery order account balance tax revenue expense draft review approval signature agreement policy insurance employee salary project schedule deadline office building lease tenant invoice total amount due date reference number department manager director board minutes agenda",
  french: "facture paiement contrats contrat budget annuel rapport réunion trimestriel client fournisseur livraison commande compte solde impôt recettes dépenses brouillon révision approbation signature accord politique assurance salarié salaire projet calendrier échéance bureau bâtiment bail locataire montant total date référence numéro service directeur conseil procès-verbal",
  german: "Rechnung Zahlung Vertrag Verträge Haushalt jährlich Bericht Sitzung vierteljährlich Kunde Lieferant Lieferung Bestellung Konto Saldo Steuer Einnahmen Ausgaben Entwurf Prüfung Genehmigung Unterschrift Vereinbarung Richtlinie Versicherung Mitarbeiter Gehalt Projekt Zeitplan Frist Büro Gebäude Miete Mieter Betrag Datum Nummer Abteilung Leiter Vorstand Protokoll",
  spanish: "factura pago contrato contratos presupuesto anual informe reunión trimestral cliente proveedor entrega pedido cuenta saldo impuesto ingresos gastos borrador revisión aprobación firma acuerdo política seguro empleado salario proyecto calendario plazo oficina edificio arrendamiento inquilino importe fecha referencia número departamento director consejo acta",
  italian: "fattura pagamento contratto contratti bilancio annuale relazione riunione trimestrale cliente fornitore consegna ordine conto saldo imposta ricavi spese bozza revisione approvazione firma accordo politica assicurazione dipendente stipendio progetto calendario scadenza ufficio edificio locazione inquilino importo data riferimento numero reparto direttore consiglio verbale",
  portuguese: "fatura pagamento contrato contratos orçamento anual relatório reunião trimestral cliente fornecedor entrega encomenda conta saldo imposto receitas despesas rascunho revisão aprovação assinatura acordo política seguro funcionário salário projeto calendário prazo escritório edifício arrendamento inquilino montante data referência número departamento diretor conselho ata",
  simple: "invoice facture Rechnung factura fattura fatura payment contract report meeting budget total amount date number customer order delivery account balance signature project office lease tenant review approval draft policy insurance salary schedule deadline reference",
};
const LANGUAGES = Object.keys(VOCABULARY);

const SENTENCES = 500;

/**
 * Inserts the texts of the population's files numbered above `fileBase` (inside the seed's
 * transaction). Texts are made of sentences of 20 words drawn once per language (a temporary
 * table), 8 to 25 of them a text, so that seeding costs little beyond PostgreSQL's to_tsvector.
 */
export async function insertTexts(db, fileBase) {
  const vocab = LANGUAGES.map((l, i) => `(${i}, '${l}', string_to_array('${VOCABULARY[l].replace(/'/g, "''")}', ' '))`).join(", ");
  await db.exec(`CREATE TEMP TABLE IF NOT EXISTS bench_sentences (lang int, n int, language text, sentence text, PRIMARY KEY (lang, n))`);
  await db.exec(
    `WITH vocab(lang, language, words) AS (VALUES ${vocab})
     INSERT INTO bench_sentences (lang, n, language, sentence)
     SELECT v.lang, s, v.language,
       (SELECT string_agg(v.words[1 + (hashint8(v.lang * 1000000 + s * 100 + i) & 1048575) % array_length(v.words, 1)], ' ' ORDER BY i) FROM generate_series(1, 20) i)
     FROM vocab v CROSS JOIN generate_series(0, ${SENTENCES - 1}) s
     ON CONFLICT DO NOTHING`,
  );
  await db.query(
    `INSERT INTO version_texts (version_id, state, content, language)
     SELECT x.current_version_id, 'available', t.content, t.language
     FROM files x
     CROSS JOIN LATERAL (
       SELECT min(b.language) AS language, string_agg(
         CASE WHEN k = 7 AND (x.id % 15000 IN (5003, 10012) OR (x.folder_id % 100 = 7 AND (hashint4(x.id) & 1023) < 3)) THEN 'kiwifruit ' ELSE '' END || b.sentence,
         -- Pages: slides of 2 sentences, scanned pages of 6; office documents in paragraphs of 3.
         CASE WHEN x.id % 100 BETWEEN 6 AND 9 AND k % 2 = 1 THEN chr(12)
              WHEN x.id % 100 BETWEEN 10 AND 14 AND k % 6 = 1 THEN chr(12)
              WHEN k % 3 = 1 THEN E'.\n' ELSE '. ' END
         ORDER BY k) AS content
       FROM generate_series(1, 8 + (hashint4(x.id) & 1048575) % 18) k
       JOIN bench_sentences b ON b.lang = (x.id / 100) % ${LANGUAGES.length} AND b.n = (hashint8(x.id::bigint * 31 + k) & 1048575) % ${SENTENCES}
     ) t
     WHERE x.id > $1::int AND x.id % 100 < 15`,
    [fileBase],
  );
  // PDFs: the earlier seed's texts, the target word in 1 of 50 of them.
  await db.query(
    `INSERT INTO version_texts (version_id, state, content)
     SELECT x.current_version_id, 'available', 'minutes of the meeting number ' || x.id ||
       CASE WHEN x.id % 15000 = 30 THEN ' budget kiwifruit' ELSE ' budget' END
     FROM files x WHERE x.id > $1::int AND x.id % 100 = 30`,
    [fileBase],
  );
}
