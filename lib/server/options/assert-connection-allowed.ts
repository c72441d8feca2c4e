import "server-only";
import { AppError } from "../errors";
import { type ConnectionAttempt, connectionRefusal, REFUSAL_MESSAGES, type ConnectionOptions } from "./connection-rules";

/** A 403 whose `details.reason` tells clients which option refused the connection. */
export function assertConnectionAllowed(options: ConnectionOptions, at: ConnectionAttempt): void {
  const reason = connectionRefusal(options, at);
  if (reason) throw new AppError("forbidden", REFUSAL_MESSAGES[reason], { reason });
}
