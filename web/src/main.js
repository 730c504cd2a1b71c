// The composition root: one state object (app/store.js), the actions that change it and talk
// to the solver (app/actions.js, app/editor-actions.js), the address and the browser's memory
// in step with it (app/link-sync.js), and the panels that draw it (panels/, one module each).
import { SolverClient } from './solver-client.js';
import { SolverPool, clampPoolSize, defaultPoolSize } from './pool/solver-pool.js';
import { SavedSearches } from './app/saved-search.js';
import { Store } from './app/store.js';
import { initialState } from './app/state.js';
import { Actions } from './app/actions.js';
import { EditorActions } from './app/editor-actions.js';
import { WatchActions } from './app/watch-actions.js';
import { LessonActions } from './app/lesson-actions.js';
import { LinkSync } from './app/link-sync.js';
import { Persist, browserStorage } from './app/persist.js';
import { SearchLock } from './app/search-lock.js';
import { StorageGuard } from './app/storage-guard.js';
import { StorageActions } from './app/storage-actions.js';
import { mountStoragePanel } from './panels/storage-panel.js';
import { libraryEntries, DEFAULT_FILE } from './ui/library.js';
import { mountLibraryPanel } from './panels/library-panel.js';
import { mountDefinitionPanel } from './panels/definition-panel.js';
import { mountEditorPanel } from './panels/editor-panel.js';
import { mountOptionsPanel } from './panels/options-panel.js';
import { OptionsActions } from './app/options-actions.js';
import { mountRunDetailsPanel } from './panels/run-details-panel.js';
import { mountSolvePanel } from './panels/solve-panel.js';
import { mountWorkersPanel } from './panels/workers-panel.js';
import { mountResumePanel } from './panels/resume-panel.js';
import { mountSolutionsPanel } from './panels/solutions-panel.js';
import { mountSharePanel } from './panels/share-panel.js';
import { mountStageBar } from './panels/stage-bar.js';
import { mountWatchPanel } from './panels/watch-panel.js';
import { mountLessonScreen } from './panels/lesson-screen.js';
import { mountStagePanel } from './panels/stage-panel.js';
import { mountLegendPanel } from './panels/legend-panel.js';
import { mountTestHooks } from './panels/test-hooks.js';
import { ViewActions } from './app/view-actions.js';
import { mountPiecesViewPanel } from './panels/pieces-view-panel.js';
import { mountLayerGridPanel } from './panels/layer-grid-panel.js';
import { PlayActions } from './app/play-actions.js'; // playing by hand, with hints
import { mountPlayStage } from './panels/play-stage.js';
import { mountPlayPanel } from './panels/play-panel.js';
import { BuildActions } from './app/build-actions.js';
import { mountBuildPanel } from './panels/build-panel.js';
import { loadEngine } from './engine-module.js';
import { useOptionParser } from './model/options.js';

// The engine reads every option text on this thread too (model/options.js): its own parser,
// not a copy. Without the engine each option text says why, as a search would.
await loadEngine().then(
  (engine) => useOptionParser((text) => engine.parseOptionsJson(text)),
  (err) => useOptionParser(() => JSON.stringify({ ok: false, error: `the solver engine did not load: ${err && err.message ? err.message : err}` })),
);

// What the page reads back from the browser's storage is checked; a damaged value is set aside
// before anything writes over it, and listed (storage-guard.js, storage-actions.js).
const storageGuard = new StorageGuard(browserStorage());
const persist = new Persist(browserStorage(), { guard: storageGuard });
persist.checkAll();
const entries = libraryEntries();
const settings = { workers: clampPoolSize(persist.settings().workers || defaultPoolSize()) };
const store = new Store({ ...initialState(), myPuzzles: persist.puzzles(), settings });
// One search shared by a pool of solver workers (one per core by default; the Workers control).
const createClient = () => new SolverPool({ size: store.get().settings.workers, createClient: () => new SolverClient() });
const savedSearches = new SavedSearches(typeof indexedDB === 'undefined' ? null : indexedDB, { guard: storageGuard });
const searchLock = new SearchLock(typeof navigator !== 'undefined' ? navigator.locks : null); // one tab runs a kept search
const actions = new Actions(store, { createClient, entries, defaultFile: DEFAULT_FILE, persist, savedSearches, searchLock });
const editor = new EditorActions(store, actions, persist);
const watch = new WatchActions(store, actions);
const lessons = new LessonActions(store, actions, watch);
const view = new ViewActions(store, actions); // seeing the pieces: highlight, hide, layers
// (play counts in a worker of its own: a Solve in the pool never waits for it)
const play = new PlayActions(store, actions, { createClient: () => new SolverClient() });
const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
const build = new BuildActions(store, actions, { reducedMotion }); // building a solution by hand
const sync = new LinkSync(store, actions, editor, persist, { libraryFiles: entries.map((e) => e.file), watch, lessons, play });

const stage = mountStagePanel(store, actions, editor, watch);
const playStage = mountPlayStage(store, stage, play);
mountLegendPanel(store, stage, view);
mountLibraryPanel(store, actions, editor);
mountDefinitionPanel(store, actions, editor);
mountEditorPanel(store, actions, editor);
const options = new OptionsActions(store);
mountOptionsPanel(store, actions, options, editor);
mountSolvePanel(store, actions, editor, options);
mountPlayPanel(store, play, playStage, sync);
mountWorkersPanel(store, actions);
mountResumePanel(store, actions);
const storageActions = new StorageActions(store, storageGuard);
mountStoragePanel(store, storageActions);
mountRunDetailsPanel(store); // what -i, -s and -t produce
mountSolutionsPanel(store, actions);
const share = mountSharePanel(store, actions, editor, sync);
mountStageBar(store, actions, editor, share); // Solve, the solutions and Share on the view (phones)
mountWatchPanel(store, actions, watch);
const lessonScreen = mountLessonScreen(store, lessons, watch, stage);
const testHooks = mountTestHooks(store, stage, watch, lessonScreen, sync, editor);
mountPiecesViewPanel(store, stage, view, sync);
mountLayerGridPanel(store, stage, view);
mountBuildPanel(store, build, stage);
store.notify(Object.keys(store.get())); // first drawing of every panel
storageActions.refresh(); // what persist found damaged (and copies set aside at earlier visits)

savedSearches.listen((message) => actions.savedChangedElsewhere(message)); // another tab's kept search
sync.restore(window.location.hash).then(() => sync.follow()).then(() => actions.checkSaved())
  .finally(() => { testHooks.startedUp = true; });
// My puzzles written by another tab or window (the event never reaches the tab that wrote)
window.addEventListener('storage', (e) => {
  if (e.key === null || Persist.isPuzzlesKey(e.key)) editor.puzzlesChangedElsewhere();
});
// a long search is written down every few seconds; once more when the page goes away
window.addEventListener('pagehide', () => actions.saveRunning());
// the editor's last edits, made within the autosave's pause (before the session names the puzzle:
// this listener comes first, the session's is added by sync.follow)
window.addEventListener('pagehide', () => editor.saveNow());
