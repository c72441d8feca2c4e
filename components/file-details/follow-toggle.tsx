"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/api-client";
import type { alertListResponse } from "@/lib/contracts/alerts";
import { useT } from "@/lib/i18n/provider";
import { useAccount } from "@/lib/queries/account";
import { detailsKeys } from "@/lib/queries/details";
import { describeFileError } from "../file-browser/format";


/** Follow a folder: an alert for oneself, so changes below it arrive as a digest mail. */
export function FollowToggle({ folderId }: { folderId: number }) {
  const t = useT();
  const toast = useToast();
  const account = useAccount();
  const queryClient = useQueryClient();
  const key = [...detailsKeys.all, "alerts", folderId];
  const alerts = useQuery({ queryKey: key, queryFn: () => api.get<typeof alertListResponse>(`/api/alerts/${folderId}`) });
  const me = account.data ? String(account.data.id) : null;
  const mine = alerts.data?.find((a) => String(a.target_id) === me);
  const toggle = useMutation({
    mutationFn: () => (mine ? api.delete(`/api/alert/${mine.id}`) : api.post("/api/alert", { folder_id: folderId, target_id: me })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
    onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
  });
  if (!me || alerts.isError) return null;
  return (
    <Button size="small" variant="secondary" aria-pressed={Boolean(mine)} disabled={alerts.isPending || toggle.isPending} onClick={() => toggle.mutate()}>
      {mine ? t("details.unfollow") : t("details.follow")}
    </Button>
  );
}
