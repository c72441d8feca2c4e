"use client";

import { useInfiniteQuery, useQueries, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useDropzone } from "react-dropzone";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { DetailsPanel } from "@/components/file-details/details-panel";
import { PreviewDialog } from "@/components/file-preview/preview-dialog";
import { DropLinkDialog } from "@/components/sharing/drop-link-dialog";
import { ShareDialog } from "@/components/sharing/share-dialog";
import { WorkflowStartDialog } from "@/components/workflows/workflow-start-dialog";
import { previewKind } from "@/components/file-preview/preview-kind";
import {
  downloadUrl,
  folderContentQuery,
  folderDetailsQuery,
  hasCriteria,
  rootsQuery,
  searchQuery,
  useDeleteItems,
  useRefreshFiles,
  type FileResponse,
  type Item,
  type Location,
} from "@/lib/queries/files";
import { commentCountsQuery, type CommentCounts } from "@/lib/queries/details";
import { listedTagsQuery, type TagResponse } from "@/lib/queries/tags";
import { useRestoreTrashItems } from "@/lib/queries/trash";
import { countInterruptedUploads, enqueueUploads, setUploadFinishedHandler, useUploads } from "@/lib/queries/uploads";
import { Breadcrumbs, crumbsOf } from "./breadcrumbs";
import styles from "./file-browser.module.css";
import { FileList, type Sort, type SortColumn } from "./file-list";
import { FolderCreateDialog } from "./folder-create-dialog";
import { describeFileError, itemKey } from "./format";
import { actionLabel, ItemMenu, type Action } from "./item-menu";
import { ItemRenameDialog } from "./item-rename-dialog";
import { ItemsMoveDialog } from "./items-move-dialog";
import { SearchFilters, type Filters } from "./search-filters";
import { sortItems } from "./sort-items";
import { UploadPanel } from "./upload-panel";
import { TemplateCreateDialog } from "@/components/templates/template-create-dialog";
import { TemplateNewFileDialog } from "@/components/templates/template-new-file-dialog";
import { useArchiveItem } from "@/lib/queries/archives";

type Dialog =
  | { type: "new" | "fromTemplate" }
  | { type: "rename" | "share" | "dropLink"; item: Item }
  | { type: "template"; item: Item & { kind: "file" } }
  | { type: "move" | "copy" | "startValidation"; items: Item[] }
  | null;

/** One folder (or space root): its items, the actions on them, uploads by drop or by picking, and a search with filters. */
export function FileBrowser({ location }: { location: Location }) {
  const t = useT();
  const router = useRouter();
  const toast = useToast();
  const refresh = useRefreshFiles();
  const roots = useQuery(rootsQuery());
  const privateRootId = roots.data?.find((r) => r.type === "private")?.id;
  const content = useInfiniteQuery(folderContentQuery(location));
  const details = useQuery({ ...folderDetailsQuery(location), enabled: location.kind === "folder" });
  const folder = content.data?.pages[0]?.folder;
  const total = content.data?.pages.at(-1)?.total ?? 0;

  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const [filters, setFilters] = useState<Filters>({});
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const criteria = useMemo(() => ({ label: query, ...filters }), [query, filters]);
  const isSearching = useMemo(() => hasCriteria(criteria), [criteria]);
  const results = useQuery({ ...searchQuery(privateRootId ?? 0, criteria), enabled: isSearching && privateRootId !== undefined });

  const [sort, setSort] = useState<Sort>({ column: "name", direction: 1 });
  const loaded = useMemo(() => content.data?.pages.flatMap((p) => p.items) ?? [], [content.data]);
  const items = useMemo(() => sortItems(isSearching ? (results.data ?? []) : loaded, sort), [isSearching, results.data, loaded, sort]);
  // Comment markers: one small request per loaded page (full mode would also sum whole subtrees).
  const comments = useQueries({
    queries: (isSearching ? [results.data ?? []] : (content.data?.pages.map((p) => p.items) ?? [])).map((rows) => commentCountsQuery(rows)),
    combine: (found) => new Map<string, CommentCounts>(found.flatMap((q) => (q.data ? [...q.data] : []))),
  });
  // Tag chips: the same, one request per loaded page.
  const rowTags = useQueries({
    queries: (isSearching ? [results.data ?? []] : (content.data?.pages.map((p) => p.items) ?? [])).map((rows) => listedTagsQuery(rows)),
    combine: (found) => new Map<string, TagResponse[]>(found.flatMap((q) => (q.data ? [...q.data] : []))),
  });

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [active, setActive] = useState(-1);
  const anchor = useRef(0);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [previewing, setPreviewing] = useState<FileResponse | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const grid = useRef<HTMLDivElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const selectedItems = useMemo(() => items.filter((i) => selected.has(itemKey(i))), [items, selected]);

  const deleteItems = useDeleteItems();
  const archiveItem = useArchiveItem();
  const restore = useRestoreTrashItems();

  useEffect(() => {
    setUploadFinishedHandler(() => void refresh());
    return () => setUploadFinishedHandler(null);
  }, [refresh]);

  const targetId = folder && folder.id > 0 ? folder.id : undefined;
  const canWrite = Boolean(folder?.can_write && targetId);
  const existingNames = useMemo(() => new Set(loaded.filter((i) => i.kind === "file").map((i) => i.name)), [loaded]);
  // Never `disabled`: react-dropzone would mark the whole browser aria-disabled. A drop where the
  // caller may not add files is refused in words instead.
  const dropzone = useDropzone({
    onDrop: (files) => {
      if (canWrite && targetId) enqueueUploads(files, targetId, existingNames);
      else if (folder && files.length > 0) toast({ tone: "error", message: t("files.readOnlyDrop") });
    },
    noClick: true,
    noKeyboard: true,
  });

  function select(index: number, mode: "only" | "toggle" | "range" | "rangeAdd") {
    const item = items[index];
    if (!item) return;
    const key = itemKey(item);
    setActive(index);
    if (mode === "only" || mode === "toggle") anchor.current = index;
    if (mode === "only") return setSelected(new Set([key]));
    if (mode === "toggle")
      return setSelected((previous) => {
        const next = new Set(previous);
        if (!next.delete(key)) next.add(key);
        return next;
      });
    const [from, to] = [Math.min(anchor.current, index), Math.max(anchor.current, index)];
    const range = items.slice(from, to + 1).map(itemKey);
    setSelected((previous) => new Set(mode === "rangeAdd" ? [...previous, ...range] : range));
  }

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = content;
  const loadMore = useCallback(() => {
    if (!isSearching && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [isSearching, hasNextPage, isFetchingNextPage, fetchNextPage]);

  function actionsFor(list: Item[]): Action[] {
    if (list.length === 0) return [];
    const single = list.length === 1 ? list[0] : null;
    const actions: Action[] = [];
    if (single && (single.kind === "folder" || isSearching)) actions.push("open");
    if (single?.kind === "file" && previewKind(single) !== "none") actions.push("preview");
    if (single) actions.push("details");
    if (single?.can_share) actions.push("share");
    if (single?.kind === "folder" && single.can_share) actions.push("dropLink");
    if (single?.kind === "file" && single.can_download) actions.push("download");
    // Signature requests take PDFs the caller may download (api.md, "add a document").
    if (single?.kind === "file" && single.can_download && previewKind(single) === "pdf") actions.push("requestSignatures");
    // Workflows: one file is a flux 1 validation, several files one flux 4 validation (api.md).
    if (list.length <= 50 && list.every((i) => i.kind === "file" && i.can_download)) actions.push("startValidation");
    if (single?.kind === "file" && single.can_download) actions.push("template");
    if (single && (single.can_write || single.can_edit)) actions.push("rename");
    const canDelete = list.every((i) => i.can_delete);
    if (canDelete) actions.push("move");
    actions.push("copy");
    if (canDelete) actions.push("delete");
    if (single?.can_delete && !(single.kind === "folder" && single.parent_id === 0)) actions.push("archive");
    return actions;
  }

  function open(item: Item) {
    if (isSearching) {
      setSearch("");
      setQuery("");
      setFilters({});
    }
    if (item.kind === "folder") router.push(`/files/${item.id}`);
    else if (isSearching) router.push(`/files/${item.parent_id}`);
    else if (previewKind(item) !== "none") setPreviewing(item);
    else if (item.can_download) download(item);
  }

  function download(item: Item) {
    const link = document.createElement("a");
    link.href = downloadUrl(item);
    link.download = "";
    link.click();
  }

  function remove(list: Item[]) {
    if (list.length === 0 || !list.every((i) => i.can_delete)) return;
    deleteItems.mutate(list, {
      onSuccess: (trashed) => {
        setSelected(new Set());
        toast({
          tone: "info",
          message: list.length === 1 ? t("files.deletedOne", { name: list[0].name }) : t("files.deletedMany", { count: list.length }),
          action: {
            label: t("files.undo"),
            run: () =>
              restore.mutate(
                { ids: trashed.map((item) => item.id) },
                {
                  onSuccess: () => toast({ tone: "info", message: t("files.restored") }),
                  onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
                },
              ),
          },
        });
      },
      onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
    });
  }

  /** Archiving is undone from the Archives page, which the notice leads to. */
  function archive(item: Item) {
    archiveItem.mutate(item, {
      onSuccess: () => {
        setSelected(new Set());
        toast({ tone: "info", message: t("archives.archived", { name: item.name }), action: { label: t("archives.open"), run: () => router.push("/archives") } });
      },
      onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
    });
  }

  function run(action: Action, list = selectedItems) {
    setMenu(null);
    const single = list[0];
    if (!single) return;
    if (action === "open") open(single);
    else if (action === "preview" && single.kind === "file") setPreviewing(single);
    else if (action === "details") setDetailsOpen(true);
    else if (action === "download") download(single);
    else if (action === "rename" || action === "share" || action === "dropLink") setDialog({ type: action, item: single });
    else if (action === "template" && single.kind === "file") setDialog({ type: "template", item: single });
    else if (action === "move" || action === "copy") setDialog({ type: action, items: list });
    else if (action === "requestSignatures") router.push(`/signatures/new?file=${single.id}`);
    else if (action === "startValidation") setDialog({ type: "startValidation", items: list });
    else if (action === "delete") remove(list);
    else if (action === "archive") archive(single);
  }

  const closeMenu = useCallback(() => {
    setMenu(null);
    grid.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
  }, []);

  const spaceLabel = location.kind === "space" ? t(location.space === "private" ? "nav.myFiles" : location.space === "company" ? "nav.company" : "nav.shared") : "";
  const crumbs = location.kind === "space" ? [{ label: spaceLabel }] : crumbsOf(details.data ?? folder, privateRootId, spaceLabel, t);
  const title = location.kind === "space" ? spaceLabel : folder?.id === privateRootId ? t("nav.myFiles") : (folder?.name ?? "");
  // The toolbar keeps to one line: the rarer actions (templates, archiving) are in the item's menu only.
  const toolbarActions = actionsFor(selectedItems).filter((action) => action !== "template" && action !== "archive");
  const resultsTitle = query ? t("files.searchResults", { query }) : t("search.filteredResults");
  const detailsItem = detailsOpen && selectedItems.length === 1 ? selectedItems[0] : null;
  const previewable = useMemo(() => items.filter((i): i is Item & { kind: "file" } => i.kind === "file" && previewKind(i) !== "none"), [items]);

  return (
    <div {...dropzone.getRootProps({ className: styles.browser })}>
      <input {...dropzone.getInputProps()} aria-label={t("uploads.pick")} data-testid="upload-input" />
      {/* Picking a whole folder: the browser gives each file its webkitRelativePath. */}
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        aria-label={t("uploads.pickFolder")}
        data-testid="upload-folder-input"
        {...{ webkitdirectory: "" }}
        onChange={(e) => {
          if (targetId && e.target.files) enqueueUploads(Array.from(e.target.files), targetId, existingNames);
          e.target.value = "";
        }}
      />
      <div className={styles.top}>
        <div className={styles.heading}>
          {location.kind === "folder" && <Breadcrumbs crumbs={crumbs} />}
          <h1 className={styles.title}>{title}</h1>
        </div>
        <div role="search" className={styles.search}>
          <input
            type="search"
            className={styles.searchInput}
            placeholder={t("files.search")}
            aria-label={t("files.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && setSearch("")}
          />
          <Button size="small" variant="ghost" aria-expanded={filtersOpen} aria-controls={filtersId} onClick={() => setFiltersOpen((open) => !open)}>
            {t("search.filtersButton")}
          </Button>
        </div>
      </div>
      {filtersOpen && (
        <div id={filtersId}>
          <SearchFilters filters={filters} onChange={setFilters} />
        </div>
      )}

      {/* One line whatever is selected: the selection's actions take the place of the creation buttons,
          so the list never moves between the two clicks of a double click. */}
      <div role="toolbar" aria-label={t("files.toolbar")} className={styles.toolbar}>
        {toolbarActions.length > 0 ? (
          <div className={styles.selectionActions}>
            <span className={styles.count}>{t("files.selected", { count: selectedItems.length })}</span>
            {toolbarActions.map((action) => (
              <Button key={action} size="small" variant={action === "delete" ? "danger" : "ghost"} onClick={() => run(action)}>
                {t(actionLabel(action))}
              </Button>
            ))}
          </div>
        ) : (
          canWrite &&
          !isSearching && (
            <>
              <Button size="small" onClick={() => setDialog({ type: "new" })}>
                {t("files.newFolder")}
              </Button>
              <Button size="small" variant="secondary" onClick={dropzone.open}>
                {t("files.upload")}
              </Button>
              <Button size="small" variant="secondary" onClick={() => folderInput.current?.click()}>
                {t("files.uploadFolder")}
              </Button>
              <Button size="small" variant="secondary" onClick={() => setDialog({ type: "fromTemplate" })}>
                {t("templates.newFromTemplate")}
              </Button>
            </>
          )
        )}
      </div>

      <InterruptedNotice />
      {isSearching && <h2 className={styles.subtitle}>{resultsTitle}</h2>}
      <div className={detailsItem ? styles.withDetails : undefined}>
      <div ref={grid} className={styles.listArea}>
        {dropzone.isDragActive && canWrite && <div className={styles.dropOverlay}>{t("files.dropHere", { name: title })}</div>}
        <ListState location={location} content={content} results={results} isSearching={isSearching} query={query} canWrite={canWrite} count={items.length} />
        {items.length > 0 && (
          <FileList
            label={isSearching ? resultsTitle : t("files.listLabel", { name: title })}
            items={items}
            total={isSearching ? items.length : Math.max(total, items.length)}
            selected={selected}
            active={active}
            sort={sort}
            onSort={(column: SortColumn) => setSort((s) => ({ column, direction: s.column === column ? (-s.direction as 1 | -1) : 1 }))}
            onSelect={select}
            onActive={setActive}
            onSelectAll={() => setSelected(new Set(items.map(itemKey)))}
            onClear={() => setSelected(new Set())}
            onOpen={open}
            onMenu={(x, y) => setMenu({ x, y })}
            onDelete={() => remove(selectedItems)}
            onRename={() => selectedItems.length === 1 && run("rename")}
            onNearEnd={loadMore}
            comments={comments}
            tags={rowTags}
            hrefOf={(item) => (item.kind === "folder" ? `/files/${item.id}` : undefined)}
          />
        )}
        {isFetchingNextPage && <p className={styles.more}>{t("files.loadingMore")}</p>}
        {!isSearching && total > 0 && <p className={styles.more}>{t("files.itemCount", { count: total })}</p>}
      </div>
      {detailsItem && <DetailsPanel key={itemKey(detailsItem)} item={detailsItem} unread={comments.get(`${detailsItem.kind}:${detailsItem.id}`)?.unread ?? 0} onClose={() => setDetailsOpen(false)} />}
      </div>

      {menu && actionsFor(selectedItems).length > 0 && <ItemMenu x={menu.x} y={menu.y} actions={actionsFor(selectedItems)} onAction={(a) => run(a)} onClose={closeMenu} />}
      {dialog?.type === "new" && targetId && (
        <FolderCreateDialog
          parentId={targetId}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            toast({ tone: "info", message: t("files.folderCreated") });
          }}
        />
      )}
      {dialog?.type === "rename" && (
        <ItemRenameDialog
          item={dialog.item}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            toast({ tone: "info", message: t("files.renamed") });
          }}
        />
      )}
      {dialog?.type === "share" && <ShareDialog item={dialog.item} onClose={() => setDialog(null)} />}
      {dialog?.type === "fromTemplate" && targetId && (
        <TemplateNewFileDialog
          folderId={targetId}
          onClose={() => setDialog(null)}
          onDone={(name) => {
            setDialog(null);
            toast({ tone: "info", message: t("templates.created", { name }) });
          }}
        />
      )}
      {dialog?.type === "template" && (
        <TemplateCreateDialog
          file={dialog.item}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            toast({ tone: "info", message: t("templates.made") });
          }}
        />
      )}
      {dialog?.type === "dropLink" && <DropLinkDialog folder={dialog.item} onClose={() => setDialog(null)} />}
      {dialog?.type === "startValidation" && <WorkflowStartDialog files={dialog.items} onClose={() => setDialog(null)} />}
      {(dialog?.type === "move" || dialog?.type === "copy") && (
        <ItemsMoveDialog
          items={dialog.items}
          mode={dialog.type}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            setSelected(new Set());
            toast({ tone: "info", message: t(dialog.type === "move" ? "files.moved" : "files.copied") });
          }}
        />
      )}
      {previewing && (
        <PreviewDialog
          file={previewing}
          files={previewable}
          onMove={(file) => {
            setPreviewing(file);
            const index = items.findIndex((i) => i.kind === "file" && i.id === file.id);
            if (index >= 0) select(index, "only");
          }}
          onClose={() => setPreviewing(null)}
        />
      )}
      <UploadPanel />
    </div>
  );
}

type ListStateProps = {
  location: Location;
  content: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  results: { isFetching: boolean; isError: boolean; refetch: () => unknown };
  isSearching: boolean;
  query: string;
  canWrite: boolean;
  count: number;
};

/** What the list area says when it has no rows: loading, failed (and what to do), or empty. */
function ListState({ location, content, results, isSearching, query, canWrite, count }: ListStateProps) {
  const t = useT();
  const router = useRouter();
  if (isSearching) {
    if (results.isFetching && count === 0) return <p className={styles.state}>{t("common.loading")}</p>;
    if (results.isError) return <StateBox title={t("error.generic")} action={<Button onClick={() => results.refetch()}>{t("error.retry")}</Button>} />;
    if (count === 0) return <StateBox title={query ? t("files.searchEmpty", { query }) : t("search.nothing")} />;
    return null;
  }
  if (content.isPending) return <p className={styles.state}>{t("files.loading")}</p>;
  if (content.isError) {
    const status = content.error instanceof ApiError ? content.error.status : 0;
    if (status === 404 || status === 403)
      return <StateBox title={t("files.notFound")} action={<Button onClick={() => router.push("/files")}>{t("files.backToMyFiles")}</Button>} />;
    return <StateBox title={t("files.error")} text={t("files.errorHint")} action={<Button onClick={() => content.refetch()}>{t("error.retry")}</Button>} />;
  }
  if (count > 0) return null;
  if (location.kind === "space" && location.space === "shared") return <StateBox title={t("files.emptySpace")} />;
  return <StateBox title={t("files.empty")} text={canWrite ? t("files.emptyHint") : t("files.emptyReadOnly")} />;
}

function StateBox({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className={styles.stateBox}>
      <p className={styles.stateTitle}>{title}</p>
      {text && <p>{text}</p>}
      {action}
    </div>
  );
}

const noSubscription = () => () => {};

/** After a reload, uploads that had started can continue: say so while nothing is uploading. */
function InterruptedNotice() {
  const t = useT();
  const uploads = useUploads();
  const count = useSyncExternalStore(noSubscription, countInterruptedUploads, () => 0);
  if (count === 0 || uploads.length > 0) return null;
  return <p className={styles.notice}>{t("uploads.interrupted", { count })}</p>;
}
