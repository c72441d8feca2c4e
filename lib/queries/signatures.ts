"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type {
  activityListResponse,
  ActorType,
  codeSentResponse,
  FieldType,
  PublicSigningResponse,
  publicSigningResponse,
  SignatureActivityResponse,
  SignatureActorResponse,
  signatureActorResponse,
  SignatureDocumentResponse,
  signatureDocumentResponse,
  SignatureFieldResponse,
  signatureFieldResponse,
  SignatureLevel,
  signatureListResponse,
  SignatureMode,
  SignatureResponse,
  signatureResponse,
  SignatureStatus,
} from "@/lib/contracts/signatures";
import type { FileResponse, fileResponse } from "@/lib/contracts/files";
import type { folderResponse } from "@/lib/contracts/folders";
import type { validatorCandidatesResponse } from "@/lib/contracts/workflows";

export type {
  ActorType,
  FieldType,
  PublicSigningResponse,
  SignatureActivityResponse,
  SignatureActorResponse,
  SignatureDocumentResponse,
  SignatureFieldResponse,
  SignatureResponse,
  SignatureStatus,
};


/** Which list: the requests I sent, or those I am an actor of. */
export type SignatureBox = "sent" | "received";

export const signaturesKeys = {
  all: ["signatures"] as const,
  lists: () => [...signaturesKeys.all, "list"] as const,
  list: (box: SignatureBox, offset: number, limit: number, status: SignatureStatus | "") => [...signaturesKeys.lists(), box, offset, limit, status] as const,
  request: (id: number) => [...signaturesKeys.all, "request", id] as const,
  activities: (id: number) => [...signaturesKeys.all, "activities", id] as const,
};

/** GET /signatures or /signatures/received, one page, newest first (the server's order). */
export const signatureListQuery = (box: SignatureBox, offset: number, limit: number, status: SignatureStatus | "" = "") =>
  queryOptions({
    queryKey: signaturesKeys.list(box, offset, limit, status),
    queryFn: () => {
      const params = new URLSearchParams({ offset_start: String(offset), nb_objects: String(limit) });
      if (status) params.set("status", status);
      return api.get<typeof signatureListResponse>(`/api/signatures${box === "received" ? "/received" : ""}?${params}`);
    },
    placeholderData: keepPreviousData,
  });

/** GET /signatures/(id)?full=1: documents with their fields, actors with their links. */
export const signatureQuery = (id: number) =>
  queryOptions({ queryKey: signaturesKeys.request(id), queryFn: () => api.get<typeof signatureResponse>(`/api/signatures/${id}?full=1`) });

/** GET /signatures/(id)/activities: the request's history, newest first. */
export const signatureActivitiesQuery = (id: number) =>
  queryOptions({
    queryKey: signaturesKeys.activities(id),
    queryFn: async () => (await api.get<typeof activityListResponse>(`/api/signatures/${id}/activities?nb_objects=1000`)).objects,
  });

/** One level of the PDF picker: a folder (or a space's root) with its sub-folders and its PDFs. */
export const pdfPickerQuery = (level: number | "company" | "shared") =>
  queryOptions({
    queryKey: ["files", "pdf-picker", level] as const,
    queryFn: async () => {
      const path = typeof level === "number" ? `/api/folder/${level}` : `/api/root/${level}`;
      const folder = await api.get<typeof folderResponse>(`${path}?depth=0&nb_objects=1000`);
      const isPdf = (f: FileResponse) => f.mime === "application/pdf" || /\.pdf$/i.test(f.name);
      return { folders: folder.content?.folders ?? [], files: (folder.content?.files ?? []).filter(isPdf) };
    },
  });

/** The signed PDF (or zip of them) and the audit trail: plain navigations to attachments. */
export const signedUrl = (id: number) => `/api/signatures/${id}/signed`;
export const auditUrl = (id: number) => `/api/signatures/${id}/audit`;
/** The bytes a document was made from: the file's version the request holds. */
export const documentUrl = (document: Pick<SignatureDocumentResponse, "file_id">) => `/api/file/${document.file_id}/download`;

function useInvalidateRequest() {
  const queryClient = useQueryClient();
  return (id: number) => invalidateRequest(queryClient, id);
}

function invalidateRequest(queryClient: QueryClient, id: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: signaturesKeys.request(id) }),
    queryClient.invalidateQueries({ queryKey: signaturesKeys.activities(id) }),
    queryClient.invalidateQueries({ queryKey: signaturesKeys.lists() }),
  ]);
}

export type NewSignature = { name: string; mode?: SignatureMode; ordered?: 0 | 1; level?: SignatureLevel; reminder_day?: number | null; expiration_date?: string | null };

/** POST /signatures, then the picked PDF as its first document (when one was given). */
export function useCreateSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, fileId }: { input: NewSignature; fileId?: number }) => {
      const created = await api.post<typeof signatureResponse>("/api/signatures", input);
      let documentError: unknown = null;
      if (fileId !== undefined) await api.post(`/api/signatures/${created.id}/documents/${fileId}`, {}).catch((e: unknown) => (documentError = e));
      return { request: created, documentError };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signaturesKeys.lists() }),
  });
}

export type SignatureSettings = Partial<{
  name: string;
  mode: SignatureMode;
  ordered: 0 | 1;
  level: SignatureLevel;
  reminder_day: number | null;
  expiration_date: string | null;
  send_copy: 0 | 1;
  subject: string | null;
  message: string | null;
}>;

/** PUT /signatures/(id); the cached request takes the answer at once. */
export function useUpdateSignature(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: SignatureSettings) => api.put<typeof signatureResponse>(`/api/signatures/${id}`, settings),
    onSuccess: () => invalidateRequest(queryClient, id),
  });
}

export function useDeleteSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/signatures/${id}`),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: signaturesKeys.request(id) });
      return queryClient.invalidateQueries({ queryKey: signaturesKeys.lists() });
    },
  });
}

/** POST /signatures/(id)/activate: the draft is sent ("ongoing"). */
export function useActivateSignature(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({ mutationFn: () => api.post<typeof signatureResponse>(`/api/signatures/${id}/activate`, {}), onSuccess: () => invalidate(id) });
}

export function useCancelSignature(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({ mutationFn: () => api.post<typeof signatureResponse>(`/api/signatures/${id}/cancel`, {}), onSuccess: () => invalidate(id) });
}

/** A reminder to one actor, or (no actor) to everyone whose turn it is, with an optional message of its own. */
export function useRemind(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({
    mutationFn: ({ actorId, message }: { actorId?: number; message?: string }) =>
      api.post(`/api/signatures/${id}/actors/${actorId === undefined ? "remind" : `${actorId}/remind`}`, message?.trim() ? { message: message.trim() } : {}),
    onSuccess: () => invalidate(id),
  });
}

export type NewActor = {
  type: ActorType;
  infos: { email: string; first_name: string; last_name: string; phone?: string | null; locale?: string };
  position?: number;
};

export function useAddActor(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({ mutationFn: (actor: NewActor) => api.post<typeof signatureActorResponse>(`/api/signatures/${id}/actors`, actor), onSuccess: () => invalidate(id) });
}

/**
 * Accounts of the platform to name as actors, so their requests are in their "Received" list.
 * The directory search is the one the "Start a validation" dialog uses (GET
 * /workflow/validators: 3 characters at least, 10 people at most, not for external accounts).
 */
export const platformPeopleQuery = (search: string) =>
  queryOptions({
    queryKey: [...signaturesKeys.all, "people", search.trim()] as const,
    queryFn: () => api.get<typeof validatorCandidatesResponse>(`/api/workflow/validators?search=${encodeURIComponent(search.trim())}`),
    enabled: search.trim().length >= 3,
    staleTime: 30_000,
  });

/** An account of the platform as an actor: the server takes the name and address from the account. */
export function useAddPlatformActor(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({
    mutationFn: ({ type, userId }: { type: ActorType; userId: string }) => api.post<typeof signatureActorResponse>(`/api/signatures/${id}/actors`, { type, id: userId }),
    onSuccess: () => invalidate(id),
  });
}

export function useDeleteActor(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({ mutationFn: (actorId: number) => api.delete(`/api/signatures/${id}/actors/${actorId}`), onSuccess: () => invalidate(id) });
}

/**
 * Swaps two actors' places in the order. Actors have no update route (api.md) and a position
 * given at creation does not shift the others, so each is removed and added again at the
 * other's position, with the fields it had.
 */
export function useSwapActors(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({
    mutationFn: async ({ first, second, fields }: { first: SignatureActorResponse; second: SignatureActorResponse; fields: SignatureFieldResponse[] }) => {
      const recreate = async (actor: SignatureActorResponse, position: number) => {
        await api.delete(`/api/signatures/${id}/actors/${actor.id}`);
        const infos = { email: actor.email, first_name: actor.first_name, last_name: actor.last_name, ...(actor.phone ? { phone: actor.phone } : {}), ...(actor.locale ? { locale: actor.locale } : {}) };
        const added = await api.post<typeof signatureActorResponse>(`/api/signatures/${id}/actors`, { type: actor.type, ...(actor.user_id ? { id: actor.user_id } : {}), infos, position });
        for (const field of fields.filter((f) => f.signer_id === actor.id)) {
          await api.post(`/api/signatures/${id}/documents/${field.document_id}/fields`, { ...fieldInput(field), signer_id: added.id });
        }
      };
      await recreate(first, second.position);
      await recreate(second, first.position);
    },
    onSettled: () => invalidate(id),
  });
}

export function useAddDocument(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({ mutationFn: (fileId: number) => api.post<typeof signatureDocumentResponse>(`/api/signatures/${id}/documents/${fileId}`, {}), onSuccess: () => invalidate(id) });
}

export function useDeleteDocument(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({ mutationFn: (documentId: number) => api.delete(`/api/signatures/${id}/documents/${documentId}`), onSuccess: () => invalidate(id) });
}

/** A PDF from the computer: uploaded into `folderId` (My files), then added as a document. */
export function useUploadDocument(id: number) {
  const invalidate = useInvalidateRequest();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, folderId }: { file: File; folderId: number }) => {
      const form = new FormData();
      form.set("folderId", String(folderId));
      form.set("targetFile", file, file.name);
      const uploaded = await api.upload<typeof fileResponse>("/api/file/upload", form);
      return api.post<typeof signatureDocumentResponse>(`/api/signatures/${id}/documents/${uploaded.id}`, {});
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["files"] });
      return invalidate(id);
    },
  });
}

export type FieldInput = {
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  signer_id: number;
  optional?: boolean;
  question?: string | null;
  default_value?: string | null;
  max_length?: number | null;
  size?: number | null;
  options?: string[] | null;
  read_only?: boolean;
  font_size?: number | null;
};

/** What the server takes back of a field (for an update, or to recreate it). */
export const fieldInput = (field: SignatureFieldResponse): FieldInput => ({
  type: field.type,
  page: field.page,
  x: field.x,
  y: field.y,
  width: field.width,
  height: field.height,
  signer_id: field.signer_id,
  optional: field.optional,
  read_only: field.read_only,
  font_size: field.font_size ?? null,
  question: field.question ?? null,
  default_value: field.default_value ?? null,
  max_length: field.max_length ?? null,
  options: field.options ?? null,
  ...(field.type === "checkbox" && field.size ? { size: field.size } : {}),
});

/** Replaces one field in the cached request (an optimistic move). */
function patchCachedField(queryClient: QueryClient, id: number, fieldId: number, patch: Partial<SignatureFieldResponse>) {
  queryClient.setQueryData<SignatureResponse>(signaturesKeys.request(id), (request) =>
    request && {
      ...request,
      documents: request.documents.map((d) => ({ ...d, fields: d.fields.map((f) => (f.id === fieldId ? { ...f, ...patch } : f)) })),
    },
  );
}

export function useAddField(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({
    mutationFn: ({ documentId, field }: { documentId: number; field: FieldInput }) => api.post<typeof signatureFieldResponse>(`/api/signatures/${id}/documents/${documentId}/fields`, field),
    onSuccess: () => invalidate(id),
  });
}

/**
 * "Copy to every page" (issue 31): the same field, same place and settings, on each other page
 * where it fits; one POST per page, so each copy is checked as any field is. Resolves to the
 * number of copies made.
 */
export function useCopyFieldToPages(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({
    mutationFn: async ({ field, pages }: { field: SignatureFieldResponse; pages: { width: number; height: number }[] }) => {
      let copies = 0;
      for (const [index, size] of pages.entries()) {
        if (index + 1 === field.page || field.x + field.width > size.width || field.y + field.height > size.height) continue;
        await api.post(`/api/signatures/${id}/documents/${field.document_id}/fields`, { ...fieldInput(field), page: index + 1 });
        copies++;
      }
      return copies;
    },
    onSettled: () => invalidate(id),
  });
}

/** PUT a field; the cache moves it first, so dragging and arrow keys never wait for the server. */
export function useUpdateField(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ field, patch }: { field: SignatureFieldResponse; patch: Partial<FieldInput> }) =>
      api.put<typeof signatureFieldResponse>(`/api/signatures/${id}/documents/${field.document_id}/fields/${field.id}`, patch),
    onMutate: ({ field, patch }) => patchCachedField(queryClient, id, field.id, patch),
    onError: () => invalidateRequest(queryClient, id),
  });
}

/** Only the cache: a field being dragged or nudged, saved once it settles. */
export function useMoveCachedField(id: number) {
  const queryClient = useQueryClient();
  return (fieldId: number, patch: Partial<SignatureFieldResponse>) => patchCachedField(queryClient, id, fieldId, patch);
}

export function useDeleteField(id: number) {
  const invalidate = useInvalidateRequest();
  return useMutation({
    mutationFn: (field: SignatureFieldResponse) => api.delete(`/api/signatures/${id}/documents/${field.document_id}/fields/${field.id}`),
    onSuccess: () => invalidate(id),
  });
}

// ── The signer's side: public, the token in the path is the credential ─────────────────────

const signBase = (token: string) => `/api/sign/${encodeURIComponent(token)}`;

export const signingKeys = { session: (token: string) => ["public", "sign", token] as const };

/** GET /sign/(token): the request as this actor sees it (marks the link opened). */
export const signingQuery = (token: string) =>
  queryOptions({ queryKey: signingKeys.session(token), queryFn: () => api.get<typeof publicSigningResponse>(signBase(token)), retry: false, staleTime: Infinity, refetchOnWindowFocus: false });

export const signingDocumentUrl = (token: string, documentId: number) => `${signBase(token)}/documents/${documentId}`;

export type SignatureCapture = { type: "drawn"; image: string } | { type: "typed"; text: string };

/**
 * The signer's actions are plain calls, not mutation hooks: the app's mutation cache sends a 401
 * to the sign-in page, and a link visitor has no account to sign in to.
 */
export const signing = {
  sign: (token: string, body: { fields: { id: number; value: string | boolean | null }[]; signature?: SignatureCapture; sms_code?: string }) =>
    api.post<typeof signatureActorResponse>(signBase(token), body),
  approve: (token: string, smsCode?: string) => api.post<typeof signatureActorResponse>(signBase(token), { approve: true, ...(smsCode ? { sms_code: smsCode } : {}) }),
  refuse: (token: string, reason: string) => api.post<typeof signatureActorResponse>(`${signBase(token)}/refuse`, { reason }),
  sendCode: (token: string) => api.post<typeof codeSentResponse>(`${signBase(token)}/sms`, {}),
};
