"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { api } from "@/lib/api-client";
import type { accountResponse } from "@/lib/contracts/account";
import type { UserResponse } from "@/lib/contracts/users";

/** The account as screens read it: GET /api/account's answer, or the page's own (presentUser), which has no current_language. */
export type Account = UserResponse;

/** PUT /api/account: every field optional; the password changes only with old_password, the email with `password` (or `code`). */
export type AccountUpdate = Partial<Pick<Account, "firstname" | "lastname" | "email" | "phone" | "organization" | "language">> & {
  old_password?: string;
  new_password?: string;
  password?: string;
  code?: string;
};

/** How the interface names a person: first and last name, else the login. */
export const displayName = (a: Pick<Account, "firstname" | "lastname" | "login">) => `${a.firstname} ${a.lastname}`.trim() || a.login;

export const accountKeys = {
  all: ["account"] as const,
  me: () => [...accountKeys.all, "me"] as const,
  picture: () => [...accountKeys.all, "picture"] as const,
};

export const accountQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: (): Promise<Account> => api.get<typeof accountResponse>("/api/account"),
  });

export const accountPictureQuery = () =>
  queryOptions({
    queryKey: accountKeys.picture(),
    queryFn: () => api.getBlob("/api/account/picture"),
    staleTime: Infinity,
  });

export const useAccount = () => useQuery(accountQuery());

/** Saves profile fields or the language; the answer is the updated account. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AccountUpdate) => api.put<typeof accountResponse>("/api/account", input),
    onSuccess: (account) => queryClient.setQueryData(accountKeys.me(), account),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { old_password: string; new_password: string }) => api.put<typeof accountResponse>("/api/account", input),
    onSuccess: (account) => queryClient.setQueryData(accountKeys.me(), account),
  });
}

export function useUploadAccountPicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("targetFile", file);
      return api.upload("/api/account/picture", form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.picture() }),
  });
}

export function useRemoveAccountPicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete("/api/account/picture"),
    onSuccess: () => queryClient.setQueryData(accountKeys.picture(), null),
  });
}

/** An object URL of the account picture (null when there is none), revoked when it changes. */
export function useAccountPictureUrl(): string | null {
  const { data } = useQuery(accountPictureQuery());
  const url = useMemo(() => (data ? URL.createObjectURL(data) : null), [data]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}
