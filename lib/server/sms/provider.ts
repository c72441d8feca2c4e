import "server-only";
/** Where text messages go. The built-in "outbox" provider only records them (administrators read them at GET /admin/sms). */
export type SmsProvider = {
  name: string;
  /** Delivers one message; throws when the gateway refuses it. */
  send(to: string, body: string): Promise<void>;
};

const outbox: SmsProvider = { name: "outbox", send: async () => {} };

/** A small real gateway adapter: POSTs `{to, body}` as JSON to SMS_HTTP_URL (bearer SMS_HTTP_TOKEN when set). */
function httpProvider(url: string, token: string | undefined): SmsProvider {
  return {
    name: "http",
    async send(to, body) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ to, body }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
    },
  };
}

/** The provider configuration names: SMS_PROVIDER=outbox (default) or http (with SMS_HTTP_URL). */
export function getSmsProvider(env: Record<string, string | undefined> = process.env): SmsProvider {
  const url = env.SMS_HTTP_URL?.trim();
  if (env.SMS_PROVIDER === "http" && url) return httpProvider(url, env.SMS_HTTP_TOKEN?.trim() || undefined);
  return outbox;
}
