/**
 * The history store: every run indexed from results files and run records (or pushed by CI),
 * the figures of its trends and the human labels, in an embedded SQLite file
 * (`.agentv/history.sqlite`) or a PostgreSQL team store; always rebuildable from the files.
 *
 * @module
 */
export {
  type CaseRunHistory,
  type FileEntry,
  HistoryStore,
  type RunDetail,
  type RunFilter,
  type SeriesKey,
  type StoreFacets,
} from "./history_store.ts";
export {
  fileHead,
  findResultsFiles,
  importLabelsFile,
  type IndexReport,
  indexResults,
  type IndexResultsOptions,
} from "./index_results.ts";
export {
  DEFAULT_STORE_FILE,
  isPostgresUrl,
  openHistoryStore,
  type OpenHistoryStoreOptions,
  STORE_ENV,
} from "./open_store.ts";
export {
  buildStoredRun,
  type RunEntry,
  type RunFigures,
  type RunGroup,
  type StoredRun,
  type StoredRunInput,
} from "./stored_run.ts";
export { type SqlDialect, type SqlDriver, type SqlRow, type SqlValue } from "./sql_driver.ts";
export {
  passRate,
  seriesTrend,
  type Trend,
  type TrendOptions,
  type TrendPoint,
  trendPoint,
} from "./trend.ts";
