"use client";

import { useCallback, useMemo, useRef } from "react";
import { DetailsPanel } from "@/components/file-details/details-panel";
import { PreviewDialog } from "@/components/file-preview/preview-dialog";
import { previewKind } from "@/components/file-preview/preview-kind";
import { useT } from "@/lib/i18n/provider";
import type { Item, Location } from "@/lib/queries/files";
import { BrowserDialogs } from "./browser-dialogs";
import { BrowserHeader } from "./browser-header";
import { BrowserToolbar } from "./browser-toolbar";
import { crumbsOf } from "./breadcrumbs";
import styles from "./file-browser.module.css";
import { FileGrid } from "./file-grid";
import { FileList } from "./file-list";
import { itemKey } from "./format";
import { ItemMenu } from "./item-menu";
import { InterruptedNotice, ListState } from "./list-state";
import { SearchMatch } from "./search-match";
import { UploadPanel } from "./upload-panel";
import { useBrowserItems } from "./use-browser-items";
import { useBrowserSearch } from "./use-browser-search";
import { useItemActions } from "./use-item-actions";
import { useSelection } from "./use-selection";
import { useUploadDrop } from "./use-upload-drop";
import { useBrowserView } from "./view-toggle";

/**
 * One folder (or space root): its items, the actions on them, uploads by drop or by picking, and
 * a search with filters. Each concern is its own hook: search, items, selection, actions and
 * dialogs, uploads.
 */
export function FileBrowser({ location }: { location: Location }) {
  const t = useT();
  const search = useBrowserSearch();
  const { isSearching, query } = search;
  const list = useBrowserItems(location, search.criteria, isSearching);
  const { folder, items, total, comments } = list;
  const selection = useSelection(items);
  const { selectedItems, select } = selection;
  const act = useItemActions(selection, isSearching, search.reset);
  const upload = useUploadDrop(folder, list.loaded);
  const grid = useRef<HTMLDivElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [view, setView] = useBrowserView();
  const Items = view === "grid" ? FileGrid : FileList;

  const { setMenu } = act;
  const closeMenu = useCallback(() => {
    setMenu(null);
    grid.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
  }, [setMenu]);

  const spaceLabel = location.kind === "space" ? t(location.space === "private" ? "nav.myFiles" : location.space === "company" ? "nav.company" : "nav.shared") : "";
  const crumbs = location.kind === "folder" ? crumbsOf(list.details.data ?? folder, list.privateRootId, spaceLabel, t) : null;
  const title = location.kind === "space" ? spaceLabel : folder?.id === list.privateRootId ? t("nav.myFiles") : (folder?.name ?? "");
  const resultsTitle = query ? t("files.searchResults", { query }) : t("search.filteredResults");
  const detailsItem = act.detailsOpen && selectedItems.length === 1 ? selectedItems[0] : null;
  const previewable = useMemo(() => items.filter((i): i is Item & { kind: "file" } => i.kind === "file" && previewKind(i) !== "none"), [items]);
  const { canWrite, dropzone } = upload;

  return (
    <div {...dropzone.getRootProps({ className: styles.browser })}>
      <input {...dropzone.getInputProps()} aria-label={t("uploads.pick")} data-testid="upload-input" />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        aria-label={t("uploads.pickFolder")}
        data-testid="upload-folder-input"
        {...{ webkitdirectory: "" }}
        onChange={upload.onFolderPicked}
      />
      <BrowserHeader title={title} crumbs={crumbs} search={search} />
      <BrowserToolbar
        actions={act.actions}
        selectedCount={selectedItems.length}
        onRun={(action) => act.run(action)}
        onClear={selection.clear}
        view={view}
        onView={setView}
        canCreate={canWrite && !isSearching}
        onNewFolder={() => act.setDialog({ type: "new" })}
        onUpload={dropzone.open}
        onUploadFolder={() => folderInput.current?.click()}
        onFromTemplate={() => act.setDialog({ type: "fromTemplate" })}
      />

      <InterruptedNotice />
      {isSearching && <h2 className={styles.subtitle}>{resultsTitle}</h2>}
      <div className={detailsItem ? styles.withDetails : undefined}>
        <div ref={grid} className={styles.listArea}>
          {dropzone.isDragActive && canWrite && <div className={styles.dropOverlay}>{t("files.dropHere", { name: title })}</div>}
          <ListState location={location} content={list.content} results={list.results} isSearching={isSearching} query={query} canWrite={canWrite} count={items.length} />
          {items.length > 0 && (
            <Items
              label={isSearching ? resultsTitle : t("files.listLabel", { name: title })}
              items={items}
              total={isSearching ? items.length : Math.max(total, items.length)}
              selected={selection.selected}
              active={selection.active}
              sort={list.sort}
              onSort={list.toggleSort}
              onSelect={select}
              onActive={selection.setActive}
              onSelectAll={selection.selectAll}
              onClear={selection.clear}
              onOpen={act.open}
              onMenu={(x, y) => setMenu({ x, y })}
              onDelete={() => act.remove(selectedItems)}
              onRename={() => selectedItems.length === 1 && act.run("rename")}
              onNearEnd={list.loadMore}
              comments={comments}
              tags={list.rowTags}
              hrefOf={(item) => (item.kind === "folder" ? `/files/${item.id}` : undefined)}
              detailOf={isSearching ? (item) => <SearchMatch item={item} /> : undefined}
            />
          )}
          {list.content.isFetchingNextPage && <p className={styles.more}>{t("files.loadingMore")}</p>}
          {!isSearching && total > 0 && <p className={styles.more}>{t("files.itemCount", { count: total })}</p>}
        </div>
        {detailsItem && (
          <DetailsPanel key={itemKey(detailsItem)} item={detailsItem} unread={comments.get(`${detailsItem.kind}:${detailsItem.id}`)?.unread ?? 0} onClose={() => act.setDetailsOpen(false)} />
        )}
      </div>

      {act.menu && act.actions.length > 0 && <ItemMenu x={act.menu.x} y={act.menu.y} actions={act.actions} onAction={(a) => act.run(a)} onClose={closeMenu} />}
      <BrowserDialogs dialog={act.dialog} targetId={upload.targetId} onClose={() => act.setDialog(null)} onMoved={selection.clear} />
      {act.previewing && (
        <PreviewDialog
          file={act.previewing}
          files={previewable}
          onMove={(file) => {
            act.setPreviewing(file);
            const index = items.findIndex((i) => i.kind === "file" && i.id === file.id);
            if (index >= 0) select(index, "only");
          }}
          onClose={() => act.setPreviewing(null)}
        />
      )}
      <UploadPanel />
    </div>
  );
}
