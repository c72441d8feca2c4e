"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { api, signInWithSecondFactor } from "@/lib/api-client";
import type { ReauthInput } from "@/lib/contracts/account";
import type {
  codeSentResponse,
  enableResponse,
  MfaState,
  mfaStateResponse,
  otpSetupResponse,
  recoveryCodesResponse,
  registeredWebauthnResponse,
  webauthnCreationOptionsResponse,
  webauthnRequestOptionsResponse,
} from "@/lib/contracts/mfa";
import { accountKeys } from "./account";
import { peopleKeys } from "./admin-people";

export type { MfaState, ReauthInput };

export const mfaKeys = { state: ["mfa", "state"] as const };

export const mfaStateQuery = () => queryOptions({ queryKey: mfaKeys.state, queryFn: () => api.get<typeof mfaStateResponse>("/api/account/mfa") });
export const useMfaState = () => useQuery(mfaStateQuery());

/** Every change answers the new state; the account's has_mfa_* flags change with it. */
function useMfaMutation<I, R>(fn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (result) => {
      if (result && typeof result === "object" && "otp" in result) queryClient.setQueryData(mfaKeys.state, result as unknown as MfaState);
      else await queryClient.invalidateQueries({ queryKey: mfaKeys.state });
      await queryClient.invalidateQueries({ queryKey: accountKeys.me() });
    },
  });
}

// Every change of factors carries the re-authentication (api.md, "Account security"): an addition
// on its first step (the secret, the text message, the key's options), a removal on itself.

/** POST /api/account/mfa/otp: a pending secret and its otpauth:// address (for the QR code). */
export const useStartOtp = () => useMutation({ mutationFn: (reauth: ReauthInput) => api.post<typeof otpSetupResponse>("/api/account/mfa/otp", reauth) });
export const useEnableOtp = () => useMfaMutation((code: string) => api.put<typeof enableResponse>("/api/account/mfa/otp", { code }));
export const useDisableOtp = () => useMfaMutation((reauth: ReauthInput) => api.delete<typeof mfaStateResponse>("/api/account/mfa/otp", reauth));

/** POST /api/account/mfa/sms: texts a code to the number; answers it masked. */
export const useStartSms = () => useMutation({ mutationFn: (input: { phone: string } & ReauthInput) => api.post<typeof codeSentResponse>("/api/account/mfa/sms", input) });
export const useEnableSms = () => useMfaMutation((code: string) => api.put<typeof enableResponse>("/api/account/mfa/sms", { code }));
export const useDisableSms = () => useMfaMutation((reauth: ReauthInput) => api.delete<typeof mfaStateResponse>("/api/account/mfa/sms", reauth));

/** Registers this browser's security key under a name: options from the server, the key's answer back. */
export const useAddSecurityKey = () =>
  useMfaMutation(async ({ name, reauth }: { name: string; reauth: ReauthInput }) => {
    const options = await api.post<typeof webauthnCreationOptionsResponse>("/api/account/mfa/webauthn/options", reauth);
    const response = await startRegistration({ optionsJSON: options });
    return api.post<typeof registeredWebauthnResponse>("/api/account/mfa/webauthn", { name, response });
  });
export const useRemoveSecurityKey = () => useMfaMutation(({ id, reauth }: { id: number; reauth: ReauthInput }) => api.delete(`/api/account/mfa/webauthn/${id}`, reauth));

export const useRegenerateRecoveryCodes = () => useMfaMutation((reauth: ReauthInput) => api.post<typeof recoveryCodesResponse>("/api/account/mfa/recovery", reauth));

/** DELETE /api/user/(id)/mfa (administrators): removes every second factor of an account. */
export function useResetUserMfa() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/user/${id}/mfa`), onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.users }) });
}

/** PUT /api/user/(id) {mfa_required} (administrators): demand a second factor of an account, or stop. */
export function useSetMfaRequired() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, required }: { id: string; required: boolean }) => api.put(`/api/user/${id}`, { mfa_required: required }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.users }),
  });
}

/** The web sign-in's second step. After it, a full page load, as after any sign-in. */
export function useSecondStep(next: string) {
  return useMutation({
    mutationFn: signInWithSecondFactor,
    onSuccess: () => window.location.assign(next),
  });
}

/** Texts the code of a sign-in waiting for its second step. */
export const useSendSignInCode = () => useMutation({ mutationFn: (mfaToken: string) => api.post<typeof codeSentResponse>("/api/auth/mfa/sms", { mfa_token: mfaToken }) });

/** Asks this browser's security key to sign the sign-in's challenge. */
export async function securityKeyAnswer(mfaToken: string) {
  const options = await api.post<typeof webauthnRequestOptionsResponse>("/api/auth/mfa/webauthn/options", { mfa_token: mfaToken });
  return startAuthentication({ optionsJSON: options });
}
