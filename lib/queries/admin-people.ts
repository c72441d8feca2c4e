"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { groupListResponse, GroupResponse, groupResponse } from "@/lib/contracts/groups";
import type { invitationListResponse, InvitationResponse, invitationResponse } from "@/lib/contracts/invitations";
import type { OptionsResponse, optionsResponse } from "@/lib/contracts/options";
import type { userListResponse, UserResponse, userResponse, UserSort } from "@/lib/contracts/users";

export type AdminUser = UserResponse;
export type AdminGroup = GroupResponse;
export type AdminInvitation = InvitationResponse;
export type ConnectionOptions = OptionsResponse;

export const peopleKeys = {
  users: ["admin-people", "users"] as const,
  groups: ["admin-people", "groups"] as const,
  invitations: ["admin-people", "invitations"] as const,
  options: ["admin-people", "options"] as const,
};

const search = (params: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") query.set(key, String(value));
  return query.toString();
};

export type UsersFilter = { keyword?: string; member_of?: string; offset: number; limit: number; sort?: UserSort; order?: "asc" | "desc"; usage?: boolean };

/**
 * GET /api/users (administrators: everyone; managers: the members of the groups they manage),
 * sorted by the server before paging; `usage` adds each user's `used` bytes.
 */
export const usersQuery = (filter: UsersFilter) =>
  queryOptions({
    queryKey: [...peopleKeys.users, filter],
    queryFn: () =>
      api.get<typeof userListResponse>(
        `/api/users?${search({ keyword: filter.keyword, member_of: filter.member_of, offset_start: filter.offset, nb_objects: filter.limit, sort: filter.sort, order: filter.order, usage: filter.usage ? 1 : undefined })}`,
      ),
    placeholderData: keepPreviousData,
  });

export type GroupsFilter = { keyword?: string; offset: number; limit: number };

export const groupsQuery = (filter: GroupsFilter) =>
  queryOptions({
    queryKey: [...peopleKeys.groups, filter],
    queryFn: () => api.get<typeof groupListResponse>(`/api/groups?${search({ keyword: filter.keyword, offset_start: filter.offset, nb_objects: filter.limit })}`),
    placeholderData: keepPreviousData,
  });

/** One group with its members and managers as Users. */
export const groupQuery = (id: string) =>
  queryOptions({
    queryKey: [...peopleKeys.groups, "one", id],
    queryFn: () => api.get<typeof groupResponse>(`/api/group/${id}?full=1`),
  });

export const invitationsQuery = () =>
  queryOptions({
    queryKey: peopleKeys.invitations,
    queryFn: () => api.get<typeof invitationListResponse>("/api/invites"),
  });

export const optionsQuery = (targetId: string) =>
  queryOptions({
    queryKey: [...peopleKeys.options, targetId],
    queryFn: () => api.get<typeof optionsResponse>(`/api/option/${targetId}`),
    // What is saved must be what the form shows next, not a copy 30 s old.
    staleTime: 0,
  });

export type UserInput = {
  login?: string;
  password?: string;
  firstname?: string;
  lastname?: string;
  email?: string;
  role?: 1 | 2 | 3 | 4;
  groups?: string[];
  quota?: number | null;
  expire?: string | null;
  active?: boolean;
};

function useInvalidate(...keys: (readonly string[])[]) {
  const queryClient = useQueryClient();
  return () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** POST /api/user; `alert` mails the login and password to the new user. */
export function useCreateUser() {
  const invalidate = useInvalidate(peopleKeys.users, peopleKeys.groups);
  return useMutation({
    mutationFn: ({ input, alert }: { input: UserInput; alert: boolean }) => api.post<typeof userResponse>(`/api/user${alert ? "?alert=1" : ""}`, input),
    onSuccess: invalidate,
  });
}

/** PUT /api/user/(id), partial; `alert` mails a changed password. */
export function useUpdateUser() {
  const invalidate = useInvalidate(peopleKeys.users, peopleKeys.groups, peopleKeys.options);
  return useMutation({
    mutationFn: ({ id, input, alert = false }: { id: string; input: UserInput; alert?: boolean }) => api.put<typeof userResponse>(`/api/user/${id}${alert ? "?alert=1" : ""}`, input),
    onSuccess: invalidate,
  });
}

/** What a bulk action did for one user: done, or refused with the error (shown in the summary). */
export type BulkOutcome = { user: AdminUser; error: unknown | null };

/**
 * One PUT /api/user/(id) per user (the contract has no batch), in turn so that the server judges
 * each on its own and a refusal stops nothing; `input` may depend on the user (their groups).
 * The list is refreshed once, at the end.
 */
export function useBulkUpdateUsers() {
  const invalidate = useInvalidate(peopleKeys.users, peopleKeys.groups, peopleKeys.options);
  return useMutation({
    mutationFn: async ({ users, input, onProgress }: { users: AdminUser[]; input: (user: AdminUser) => UserInput; onProgress?: (done: number) => void }) => {
      const outcomes: BulkOutcome[] = [];
      for (const user of users) {
        try {
          await api.put<typeof userResponse>(`/api/user/${user.id}`, input(user));
          outcomes.push({ user, error: null });
        } catch (error) {
          outcomes.push({ user, error });
        }
        onProgress?.(outcomes.length);
      }
      return outcomes;
    },
    onSettled: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidate(peopleKeys.users, peopleKeys.groups);
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/user/${id}`), onSuccess: invalidate });
}

/** POST /api/reset_password: the account receives a one-use reset link by mail. */
export function useMailPasswordReset() {
  return useMutation({ mutationFn: (login: string) => api.post("/api/reset_password", { login_or_email: login }) });
}

export type GroupInput = { login?: string; members?: string[]; managers?: string[] };

export function useCreateGroup() {
  const invalidate = useInvalidate(peopleKeys.groups, peopleKeys.users);
  return useMutation({ mutationFn: (input: GroupInput) => api.post<typeof groupResponse>("/api/group", { members: [], ...input }), onSuccess: invalidate });
}

export function useUpdateGroup() {
  const invalidate = useInvalidate(peopleKeys.groups, peopleKeys.users);
  return useMutation({ mutationFn: ({ id, input }: { id: string; input: GroupInput }) => api.put<typeof groupResponse>(`/api/group/${id}`, input), onSuccess: invalidate });
}

export function useDeleteGroup() {
  const invalidate = useInvalidate(peopleKeys.groups, peopleKeys.users);
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/group/${id}`), onSuccess: invalidate });
}

export type InvitationInput = { target: string; folder: number; rights: number; expiration: string | null };

/** POST /api/invite: the invited address is mailed a link to create its account. */
export function useCreateInvitation() {
  const invalidate = useInvalidate(peopleKeys.invitations);
  return useMutation({ mutationFn: (input: InvitationInput) => api.post<typeof invitationResponse>("/api/invite", input), onSuccess: invalidate });
}

export function useUpdateInvitation() {
  const invalidate = useInvalidate(peopleKeys.invitations);
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: { rights?: number; expiration?: string | null } }) => api.put<typeof invitationResponse>(`/api/invite/${id}`, input),
    onSuccess: invalidate,
  });
}

export function useDeleteInvitation() {
  const invalidate = useInvalidate(peopleKeys.invitations);
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/invite/${id}`), onSuccess: invalidate });
}

export type OptionsInput = { ips?: string[] | null; days?: number; hour_start?: string | null; hour_end?: string | null; can_netsync?: boolean; oauth_blocked?: number };

export function useUpdateOptions() {
  const invalidate = useInvalidate(peopleKeys.options);
  return useMutation({ mutationFn: ({ id, input }: { id: string; input: OptionsInput }) => api.put<typeof optionsResponse>(`/api/option/${id}`, input), onSuccess: invalidate });
}

export function useDeleteOptions() {
  const invalidate = useInvalidate(peopleKeys.options);
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/option/${id}`), onSuccess: invalidate });
}
