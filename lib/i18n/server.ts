import { headers } from "next/headers";
import { parseAcceptLanguage, resolveLanguage, type UiLanguage } from "./languages";
import { createTranslator, type Translate } from "./translate";

/** The language of a server render: the user's setting, or for `auto` (and signed-out pages) Accept-Language. */
export async function getRequestLanguage(setting?: string | null): Promise<UiLanguage> {
  return resolveLanguage(setting, await getBrowserTags());
}

export async function getBrowserTags(): Promise<string[]> {
  return parseAcceptLanguage((await headers()).get("accept-language"));
}

export async function getServerT(setting?: string | null): Promise<Translate> {
  return createTranslator(await getRequestLanguage(setting));
}
