"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiError } from "@/lib/api-client";
import { useBrowserLanguage } from "@/lib/i18n/browser-language";
import { isUiLanguage, type UiLanguage } from "@/lib/i18n/languages";
import { I18nProvider } from "@/lib/i18n/provider";

/** A 401 means the session is gone (signed out elsewhere, revoked, expired): back to the sign-in page. */
function onError(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  const next = window.location.pathname + window.location.search;
  // A full load on purpose: the cache of the session that ended must not survive.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/login?expired=1&next=${encodeURIComponent(next)}`);
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
}

type Props = {
  /** The signed-in user's `language` setting, if any; `auto` and signed-out pages follow the browser. */
  setting: string | null;
  /** The server's reading of Accept-Language, used until the browser's own preference is known. */
  browserGuess: UiLanguage;
  children: ReactNode;
};

export function Providers({ setting, browserGuess, children }: Props) {
  const [queryClient] = useState(makeQueryClient);
  const browser = useBrowserLanguage(browserGuess);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider language={isUiLanguage(setting) ? setting : browser}>{children}</I18nProvider>
    </QueryClientProvider>
  );
}
