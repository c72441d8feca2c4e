"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useAccount } from "@/lib/queries/account";
import { commentsQuery, useAddComment, useDeleteComment, useRefreshCommentCounts, type AnnotationResponse, type Target } from "@/lib/queries/details";
import { describeFileError } from "../file-browser/format";
import styles from "./details.module.css";

/**
 * Comments as threads: each top-level comment with its replies under it. Opening the list marks
 * the target's comments read (the server does it when they are listed); the ones that were
 * unread (the newest `unread` written by others) keep a "New" mark while the panel is open.
 */
export function CommentsTab({ target, unread = 0 }: { target: Target; unread?: number }) {
  const t = useT();
  const refreshCounts = useRefreshCommentCounts();
  const account = useAccount();
  const comments = useQuery(commentsQuery(target));
  const [replyTo, setReplyTo] = useState<number | null>(null);
  const [unreadWhenOpened] = useState(unread);
  const loaded = comments.isSuccess;
  useEffect(() => {
    // Listing read them: the markers of the list follow.
    if (loaded) void refreshCounts();
  }, [loaded, refreshCounts]);
  if (comments.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (comments.isError) return <p role="alert">{t("error.generic")}</p>;
  const all = comments.data;
  const me = account.data ? String(account.data.id) : null;
  const byOthers = all.filter((c) => c.owner_id !== me);
  const fresh = new Set((unreadWhenOpened > 0 ? byOthers.slice(-unreadWhenOpened) : []).map((c) => c.id));
  const roots = all.filter((c) => !c.conversation || !all.some((p) => p.id === c.conversation));
  const repliesOf = (id: number) => all.filter((c) => c.conversation === id);
  return (
    <div className={styles.comments}>
      {roots.length === 0 && <p className={styles.muted}>{t("details.noComments")}</p>}
      <ul className={styles.list} aria-label={t("details.comments")}>
        {roots.map((comment) => (
          <li key={comment.id} className={styles.thread}>
            <Comment comment={comment} isNew={fresh.has(comment.id)} onReply={() => setReplyTo(comment.id)} />
            {repliesOf(comment.id).length > 0 && (
              <ul className={styles.replies} aria-label={t("details.replies")}>
                {repliesOf(comment.id).map((reply) => (
                  <li key={reply.id}>
                    <Comment comment={reply} isNew={fresh.has(reply.id)} />
                  </li>
                ))}
              </ul>
            )}
            {replyTo === comment.id && <CommentForm target={target} conversation={comment.id} onDone={() => setReplyTo(null)} autoFocus />}
          </li>
        ))}
      </ul>
      <CommentForm target={target} />
    </div>
  );
}

function Comment({ comment, isNew, onReply }: { comment: AnnotationResponse; isNew: boolean; onReply?: () => void }) {
  const t = useT();
  const toast = useToast();
  const account = useAccount();
  const remove = useDeleteComment();
  const mine = account.data && String(account.data.id) === comment.owner_id;
  return (
    <article className={styles.comment} data-testid="comment">
      <p className={styles.commentMeta}>
        <strong>{comment.owner}</strong> <LocalTime iso={comment.date} />
        {isNew && <span className={styles.newMark}> {t("details.new")}</span>}
      </p>
      <p className={styles.commentText}>{comment.text}</p>
      <div className={styles.rowActions}>
        {onReply && (
          <button type="button" className={styles.linkButton} onClick={onReply}>
            {t("details.reply")}
          </button>
        )}
        {mine && (
          <button
            type="button"
            className={styles.linkButton}
            onClick={() => remove.mutate(comment.id, { onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }) })}
          >
            {t("details.deleteComment")}
          </button>
        )}
      </div>
    </article>
  );
}

function CommentForm({ target, conversation, onDone, autoFocus }: { target: Target; conversation?: number; onDone?: () => void; autoFocus?: boolean }) {
  const t = useT();
  const toast = useToast();
  const add = useAddComment(target);
  const [text, setText] = useState("");
  const label = conversation ? t("details.replyLabel") : t("details.newComment");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    add.mutate(
      { text: text.trim(), conversation },
      {
        onSuccess: () => {
          setText("");
          onDone?.();
        },
        onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
      },
    );
  }

  return (
    <form className={styles.commentForm} onSubmit={submit}>
      <textarea
        className={styles.textarea}
        aria-label={label}
        placeholder={label}
        value={text}
        rows={conversation ? 2 : 3}
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit(e);
          if (e.key === "Escape" && onDone) onDone();
        }}
      />
      <Button type="submit" size="small" disabled={add.isPending || !text.trim()}>
        {conversation ? t("details.sendReply") : t("details.send")}
      </Button>
    </form>
  );
}
