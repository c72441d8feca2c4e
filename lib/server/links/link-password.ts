import "server-only";
import { hashPassword, verifyPassword } from "../auth/passwords";

// Link passwords are hashed like account passwords (Argon2id); they are never stored or shown in clear.
export const hashLinkPassword = (password: string): Promise<string> => hashPassword(password);

export const verifyLinkPassword = (stored: string | null, password: string): Promise<boolean> => verifyPassword(stored, password);
