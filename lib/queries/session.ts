"use client";

import { useMutation } from "@tanstack/react-query";
import { api, signInWithPassword, signOut } from "@/lib/api-client";

/** After a sign-in or out, a full page load: the server renders the next screen for the new session, with an empty cache. */
const goTo = (path: string) => window.location.assign(path);

export function useSignIn(next: string) {
  return useMutation({
    mutationFn: (input: { login: string; password: string }) => signInWithPassword(input.login, input.password),
    onSuccess: () => goTo(next),
  });
}

export function useSignOut() {
  return useMutation({
    mutationFn: signOut,
    onSettled: () => goTo("/login"),
  });
}

/** POST /api/reset_password: mails a link to choose a new password. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (loginOrEmail: string) => api.post("/api/reset_password", { login_or_email: loginOrEmail }),
  });
}

/** POST /api/reset_password/(token): sets the new password (404 when the link is unknown or used). */
export function useResetPassword(token: string) {
  return useMutation({
    mutationFn: (password: string) => api.post(`/api/reset_password/${encodeURIComponent(token)}`, { password }),
  });
}
