/** A request id from the path, or null when it is not one (the page is then a 404). */
export function parseSignatureId(value: string | undefined): number | null {
  const id = Number(value);
  return value && /^\d+$/.test(value) && Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}
