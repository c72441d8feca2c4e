import "server-only";
import { AppError } from "../errors";
import { connectionRefusal, REFUSAL_MESSAGES, type ConnectionOptions } from "./connection-rules";

/** A 403 whose `details.reason` tells clients which option refused the connection. */
export function assertConnectionAllowed(options: ConnectionOptions, at: { ip: string; now: Date; kind: string }): void {
  const reason = connectionRefusal(options, at);
  if (reason) throw new AppError("forbidden", REFUSAL_MESSAGES[reason], { reason });
}
