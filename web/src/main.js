// The composition root: one state object (app/store.js), the actions that change it and talk
// to the solver (app/actions.js, app/editor-actions.js), and the panels that draw it (panels/,
// one module each).
import { SolverClient } from './solver-client.js';
import { Store } from './app/store.js';
import { initialState } from './app/state.js';
import { Actions } from './app/actions.js';
import { EditorActions } from './app/editor-actions.js';
import { Persist, browserStorage } from './app/persist.js';
import { libraryEntries, DEFAULT_FILE } from './ui/library.js';
import { mountLibraryPanel } from './panels/library-panel.js';
import { mountDefinitionPanel } from './panels/definition-panel.js';
import { mountEditorPanel } from './panels/editor-panel.js';
import { mountOptionsPanel } from './panels/options-panel.js';
import { mountSolvePanel } from './panels/solve-panel.js';
import { mountSolutionsPanel } from './panels/solutions-panel.js';
import { mountStagePanel } from './panels/stage-panel.js';
import { mountLegendPanel } from './panels/legend-panel.js';
import { mountTestHooks } from './panels/test-hooks.js';

const persist = new Persist(browserStorage());
const store = new Store({ ...initialState(), myPuzzles: persist.puzzles() });
const actions = new Actions(store, {
  createClient: () => new SolverClient(), entries: libraryEntries(), defaultFile: DEFAULT_FILE, persist,
});
const editor = new EditorActions(store, actions, persist);

const stage = mountStagePanel(store, actions);
mountLegendPanel(store, stage);
mountLibraryPanel(store, actions);
mountDefinitionPanel(store, actions, editor);
mountEditorPanel(store, actions, editor);
mountOptionsPanel(store, actions);
mountSolvePanel(store, actions);
mountSolutionsPanel(store, actions);
mountTestHooks(store, stage);
store.notify(Object.keys(store.get())); // first drawing of every panel

actions.start();
