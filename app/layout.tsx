import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { htmlLang } from "@/lib/i18n/languages";
import { getRequestLanguage } from "@/lib/i18n/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Coffre", template: "%s · Coffre" },
  description: "Self-hostable document storage, versioning and sharing",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#2f5bd3" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const current = await getCurrentUser();
  const setting = current?.user.language ?? null;
  const [language, browserGuess] = await Promise.all([getRequestLanguage(setting), getRequestLanguage(null)]);
  return (
    <html lang={htmlLang(language)}>
      <body>
        <Providers setting={setting} browserGuess={browserGuess}>
          {children}
        </Providers>
      </body>
    </html>
  );
}
