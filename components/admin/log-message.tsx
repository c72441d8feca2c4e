"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { LogEntryResponse } from "@/lib/contracts/logs";
import { logMessageParts, type LogMessagePart } from "./log-vocabulary";
import { useT } from "@/lib/i18n/provider";
import { fileFolderId } from "@/lib/queries/admin-logs";
import styles from "./logs.module.css";

/** One log entry's sentence in the reader's language, its object a link to where the app shows it. */
export function LogMessage({ entry }: { entry: LogEntryResponse }) {
  const t = useT();
  return (
    <span>
      {logMessageParts(entry, t).map((part, i) => (
        <Part key={i} part={part} />
      ))}
    </span>
  );
}

function Part({ part }: { part: LogMessagePart }) {
  if (part.kind === "text") return <>{part.text}</>;
  if (part.kind === "actor") return <span className={styles.actor}>{part.text}</span>;
  if (!part.link) return <span className={styles.object}>{part.text}</span>;
  if ("href" in part.link)
    return (
      <Link className={styles.objectLink} href={part.link.href}>
        {part.text}
      </Link>
    );
  return <FileLink fileId={part.link.fileId} name={part.text} />;
}

/** A file opens in its folder; the entry knows the file, so the folder is asked for on click. */
function FileLink({ fileId, name }: { fileId: number; name: string }) {
  const t = useT();
  const router = useRouter();
  const [failed, setFailed] = useState(false);
  return (
    <>
      <button
        type="button"
        className={styles.objectButton}
        onClick={async () => {
          setFailed(false);
          try {
            router.push(`/files/${await fileFolderId(fileId)}`);
          } catch {
            setFailed(true);
          }
        }}
      >
        {name}
      </button>
      {failed && (
        <span role="status" className={styles.linkError}>
          {" "}
          {t("admin.logs.fileGone")}
        </span>
      )}
    </>
  );
}
