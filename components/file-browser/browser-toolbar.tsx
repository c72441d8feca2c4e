"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import styles from "./file-browser.module.css";
import grid from "./file-grid.module.css";
import { actionLabel, ItemMenu, type Action, type CreateAction } from "./item-menu";
import { ViewToggle, type BrowserView } from "./view-toggle";

type Props = {
  /** The selection's actions; none: the creation buttons alone. */
  actions: Action[];
  selectedCount: number;
  onRun: (action: Action) => void;
  onClear: () => void;
  canCreate: boolean;
  onNewFolder: () => void;
  onUpload: () => void;
  onUploadFolder: () => void;
  onFromTemplate: () => void;
  view: BrowserView;
  onView: (view: BrowserView) => void;
};

// The order in which actions claim the room; what does not fit goes to "More" (issue 29: nothing off the edge).
// Open and Preview come late: a double click or Enter on the row does the same.
const PRIORITY: Action[] = ["details", "share", "dropLink", "rename", "download", "move", "copy", "delete", "preview", "open", "tag", "requestSignatures", "startValidation"];
// Rarer actions are in the "More" menu (and the row's menu) only.
const IN_MENU_ONLY: Action[] = ["star", "unstar", "template", "archive"];
/** Below this toolbar width, New folder and Upload move into "More" while items are selected. */
const NARROW = 700;
/** The toolbar's gap between items (--space-2) and between the selection's buttons (--space-1). */
const GAP = 8;
const SMALL_GAP = 4;

/** The toolbar's width, followed as the window or the details panel changes it. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1024);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** Each button's width in this language, read from an invisible copy of them (keys: actions and parts). */
function useButtonWidths() {
  const ref = useRef<HTMLDivElement>(null);
  const [widths, setWidths] = useState<Record<string, number>>({});
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // The copy changes size whenever its buttons or their language do.
    const observer = new ResizeObserver(() => {
      const found: Record<string, number> = {};
      el.querySelectorAll<HTMLElement>("[data-measure]").forEach((button) => (found[button.dataset.measure!] = button.offsetWidth));
      setWidths(found);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { measureRef: ref, widths };
}

/** The first actions, in order, whose buttons fit in `room` px; all of them when they all do. */
function fitting(ordered: Action[], widths: Record<string, number>, room: number, moreWidth: number): number {
  const total = ordered.reduce((sum, a) => sum + (widths[a] ?? 90) + SMALL_GAP, 0);
  if (total <= room) return ordered.length;
  let used = moreWidth + SMALL_GAP;
  let count = 0;
  for (const action of ordered) {
    used += (widths[action] ?? 90) + SMALL_GAP;
    if (used > room) break;
    count++;
  }
  return count;
}

/**
 * One line whatever is selected: the selection's actions as many as fit, the others in "More";
 * New folder and Upload stay beside them (in "More" on a narrow screen), so picking rows never
 * hides what makes new ones. The list never moves between the two clicks of a double click.
 */
export function BrowserToolbar(props: Props) {
  const { actions, selectedCount, onRun, canCreate } = props;
  const t = useT();
  const { ref, width } = useWidth();
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const isNarrow = width < NARROW;
  const creating = canCreate && !(selectedCount > 0 && isNarrow);
  const ordered = [...actions.filter((a) => !IN_MENU_ONLY.includes(a))].sort((a, b) => PRIORITY.indexOf(a) - PRIORITY.indexOf(b));
  const { measureRef, widths } = useButtonWidths();
  const w = (key: string) => widths[key] ?? 0;
  const room = width - 4 - w("count") - w("clear") - 2 * SMALL_GAP - GAP - w("toggle") - (creating ? w("create") + GAP : 0);
  // What "More" holds whatever the room: the rarer actions, and the creation buttons not shown.
  const extras: (Action | CreateAction)[] = actions.filter((a) => IN_MENU_ONLY.includes(a));
  const allCreateButtons = selectedCount === 0 && !isNarrow;
  if (canCreate && !allCreateButtons) extras.push(...(creating ? [] : (["newFolder", "upload"] as const)), "uploadFolder", "fromTemplate");
  const shown = ordered.slice(0, fitting(ordered, widths, room - (extras.length ? w("more") + SMALL_GAP : 0), extras.length ? 0 : w("more")));
  const overflow: (Action | CreateAction)[] = [...ordered.slice(shown.length), ...extras];

  const moreButton = overflow.length > 0 && (
    <Button
      size="small"
      variant="ghost"
      aria-haspopup="menu"
      aria-expanded={menu !== null}
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        setMenu(menu ? null : { x: box.left, y: box.bottom + 4 });
      }}
    >
      {t("files.moreActions")} {"▾"}
    </Button>
  );

  function runFromMenu(action: Action | CreateAction) {
    setMenu(null);
    if (action === "newFolder") props.onNewFolder();
    else if (action === "upload") props.onUpload();
    else if (action === "uploadFolder") props.onUploadFolder();
    else if (action === "fromTemplate") props.onFromTemplate();
    else onRun(action);
  }

  return (
    <>
      <div ref={measureRef} className={grid.measure} aria-hidden="true">
        <span data-measure="count" className={styles.count}>
          {t("files.selected", { count: selectedCount })}
        </span>
        <Button data-measure="clear" size="small" variant="ghost" tabIndex={-1}>
          ×
        </Button>
        {ordered.map((action) => (
          <Button key={action} data-measure={action} size="small" variant="ghost" tabIndex={-1}>
            {t(actionLabel(action))}
          </Button>
        ))}
        <Button data-measure="more" size="small" variant="ghost" tabIndex={-1}>
          {t("files.moreActions")} {"▾"}
        </Button>
        <span data-measure="create" className={grid.createActions}>
          <Button size="small" tabIndex={-1}>
            {t("files.newFolder")}
          </Button>
          <Button size="small" variant="secondary" tabIndex={-1}>
            {t("files.upload")}
          </Button>
        </span>
        <span data-measure="toggle">
          <ViewToggle view={props.view} onView={() => {}} />
        </span>
      </div>
      <div ref={ref} role="toolbar" aria-label={t("files.toolbar")} className={styles.toolbar}>
        {selectedCount > 0 && (
          <div className={styles.selectionActions} data-testid="selection-bar">
            <span className={styles.count}>{t("files.selected", { count: selectedCount })}</span>
            <Button size="small" variant="ghost" aria-label={t("files.clearSelection")} title={t("files.clearSelection")} onClick={props.onClear}>
              ×
            </Button>
            {shown.map((action) => (
              <Button key={action} size="small" variant={action === "delete" ? "danger" : "ghost"} onClick={() => onRun(action)}>
                {t(actionLabel(action))}
              </Button>
            ))}
            {moreButton}
          </div>
        )}
        {creating && (
          <div className={grid.createActions}>
            <Button size="small" variant={selectedCount > 0 ? "secondary" : "primary"} onClick={props.onNewFolder}>
              {t("files.newFolder")}
            </Button>
            <Button size="small" variant="secondary" onClick={props.onUpload}>
              {t("files.upload")}
            </Button>
            {allCreateButtons && (
              <>
                <Button size="small" variant="secondary" onClick={props.onUploadFolder}>
                  {t("files.uploadFolder")}
                </Button>
                <Button size="small" variant="secondary" onClick={props.onFromTemplate}>
                  {t("templates.newFromTemplate")}
                </Button>
              </>
            )}
          </div>
        )}
        {selectedCount === 0 && moreButton}
        <ViewToggle view={props.view} onView={props.onView} />
        {menu && (
          <ItemMenu
            x={menu.x}
            y={menu.y}
            label={t("files.moreActions")}
            actions={overflow}
            onAction={runFromMenu}
            onClose={() => {
              setMenu(null);
              ref.current?.querySelector<HTMLElement>('[aria-haspopup="menu"]')?.focus();
            }}
          />
        )}
      </div>
    </>
  );
}
