"use client";

import { useSyncExternalStore } from "react";
import { matchLanguage, type UiLanguage } from "./languages";

const subscribe = (onChange: () => void) => {
  window.addEventListener("languagechange", onChange);
  return () => window.removeEventListener("languagechange", onChange);
};

/**
 * The browser's preferred interface language (navigator.languages). During server rendering and
 * hydration it is the server's guess from Accept-Language, so both renders agree.
 */
export function useBrowserLanguage(serverGuess: UiLanguage): UiLanguage {
  return useSyncExternalStore(
    subscribe,
    () => matchLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]),
    () => serverGuess,
  );
}
