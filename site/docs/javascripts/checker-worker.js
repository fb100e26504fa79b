// The rules engine: a module Web Worker that owns Pyodide, so its seconds-long start never blocks the page.
// It runs carddb/core unchanged (the zip the site ships) and answers one message at a time, string in, string out.
// Messages: {op: "init", root} first; then {id, op: "check" | "decode" | "play", ...}; replies {id, result | error}.

// Decoding an opened file is the command line's own function; its refusals (binary, too big) become messages.
const GLUE = `
import json
from carddb.errors import CarddbError
from carddb.core.decks.file import decode_deck_bytes

def carddb_decode(data, where):
    try:
        return json.dumps({"text": decode_deck_bytes(bytes(data), where)})
    except CarddbError as exc:
        return json.dumps({"error": str(exc)})
`;

// The next visit's head start: a memory snapshot of Python with carddb/core imported, kept in this browser's
// Cache Storage under the engine's version and the rules bundle's content hash (a new site makes a new one).
const SNAPSHOTS = "carddb-engine-snapshot";
const PRELOAD = "import carddb.errors, carddb.core.browser, carddb.core.checker.report, carddb.core.decks.parse, "
  + "carddb.core.decks.write, carddb.core.decks.file, carddb.core.search.query";

async function readSnapshot(key) {
  try {
    if (!self.caches) return null;  // not a secure context: no Cache Storage
    const found = await (await caches.open(SNAPSHOTS)).match(key);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function saveSnapshot(key, bytes) {
  try {
    if (!self.caches) return false;
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    return true;
  } catch {
    return false;  // storage refused or full: the next visit boots as this one did
  }
}

let ready = null;
const gameData = new Map();
let site = null;

async function fetchOk(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

function progress(text, id) { self.postMessage({ type: "progress", text, id }); }

async function start(root) {
  const timings = {};
  const mark = (name) => { timings[name] = Math.round(performance.now()); };
  progress("fetching its manifest");
  const manifest = await (await fetchOk(new URL("assets/carddb/manifest.json", root), { cache: "no-cache" })).json();
  site = { root, manifest };
  mark("manifest");
  // The rules package downloads while Pyodide starts.
  const zipPromise = fetchOk(new URL(manifest.package, root)).then((r) => r.arrayBuffer());
  zipPromise.catch(() => {});  // reported when awaited below
  const base = new URL(manifest.pyodide, root).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", base).href);
  mark("loader");
  const key = new URL(`${SNAPSHOTS}/${manifest.pyodide}${manifest.package}`, root).href;
  const snapshot = await readSnapshot(key);
  let py = null;
  if (snapshot) {
    progress("starting Python from this browser's copy");
    try { py = await loadPyodide({ indexURL: base, _loadSnapshot: snapshot }); } catch { py = null; }
    timings.restored = py !== null;
  }
  if (!py) {
    progress("downloading and starting Python");
    py = await loadPyodide({ indexURL: base, _makeSnapshot: true });
  }
  mark("pyodide");
  progress("importing carddb's rules");
  const zip = await zipPromise;
  py.unpackArchive(zip, "zip", { extractDir: "/carddb" });  // after a restore too: the files are not in memory
  py.runPython(`import sys\nif '/carddb' not in sys.path: sys.path.insert(0, '/carddb')\n${PRELOAD}`);
  let saved = Promise.resolve(false);
  if (!timings.restored) {
    // Python with carddb/core imported, as it is now (before any proxy to it exists, which a snapshot cannot
    // hold): the next visit starts from this in a fraction of the time. Storing it happens after "ready".
    try { saved = saveSnapshot(key, py.makeMemorySnapshot()); } catch { /* a Pyodide that cannot snapshot */ }
  }
  py.runPython(GLUE);
  const browser = py.pyimport("carddb.core.browser");
  mark("rules");
  return { py, browser, decode: py.globals.get("carddb_decode"), version: py.version, timings, saved };
}

async function game(id) {
  if (!gameData.has(id)) {
    const entry = site.manifest.games[id];
    if (!entry) throw new Error(`no game ${id} on this site`);
    gameData.set(id, (async () => {
      const [toml, cards] = await Promise.all([entry.toml, entry.cards].map(
        async (path) => (await fetchOk(new URL(path, site.root))).text()));
      return { toml, cards };
    })());
  }
  return gameData.get(id);
}

async function handle(engine, message) {
  if (message.op === "check") {
    const data = await game(message.game);
    const started = performance.now();
    const result = engine.browser.check_deck_json(data.toml, data.cards, message.deck, message.format || null,
                                                  message.filename || "");
    return { result, ms: performance.now() - started };
  }
  if (message.op === "decode") {
    // The bytes of an opened file, decoded as the command line decodes them (encodings, binaries refused).
    const bytes = engine.py.toPy(new Uint8Array(message.bytes));
    try {
      return { result: engine.decode(bytes, message.filename || "deck file") };
    } finally {
      bytes.destroy();
    }
  }
  if (message.op === "play") {
    // A play helper (javascripts/play.js): the request `carddb play <game> <helper> --json` builds.
    const data = await game(message.game);
    return { result: engine.browser.play_json(data.toml, data.cards, message.helper, JSON.stringify(message.request),
                                              message.format || null) };
  }
  if (message.op === "builder-check") {
    // The deck builder's deck, as entries: checked by the same code as `carddb deck check`.
    const data = await game(message.game);
    const started = performance.now();
    const result = engine.browser.builder_check_json(data.toml, data.cards, JSON.stringify(message.entries),
                                                     message.format || null);
    return { result, ms: performance.now() - started };
  }
  if (message.op === "builder-write") {
    const data = await game(message.game);
    return { result: engine.browser.builder_write_json(data.toml, data.cards, JSON.stringify(message.entries),
                                                       message.format, message.name || "") };
  }
  if (message.op === "builder-read") {
    const data = await game(message.game);
    return { result: engine.browser.builder_read_json(data.toml, data.cards, message.deck, message.filename || "") };
  }
  if (message.op === "playtest-deal" || message.op === "playtest-odds") {
    // The builder's playtest table (javascripts/playtest.js): carddb/core/play/playtest.py, as `carddb deck odds`.
    const data = await game(message.game);
    const entries = JSON.stringify(message.entries);
    return { result: message.op === "playtest-deal"
      ? engine.browser.playtest_deal_json(data.toml, data.cards, entries, message.seed)
      : engine.browser.playtest_odds_json(data.toml, data.cards, entries, JSON.stringify(message.request)) };
  }
  if (message.op === "search") {
    const data = await game(message.game);
    const started = performance.now();
    return { result: engine.browser.search_cards_json(data.toml, data.cards, message.query),
             ms: performance.now() - started };
  }
  if (message.op === "print") {
    return printDeck(engine, await game(message.game), message);
  }
  throw new Error(`unknown request ${message.op}`);
}

// Printing: `carddb print` itself (the layout engine, ReportLab's vector painter and the PDF self-check under
// Pyodide), unpacked beside carddb/core from the site's printing bundle on the first print request.
let printing = null;
function printingEngine(engine, id) {
  printing ??= (async () => {
    if (!site.manifest.print) throw new Error("this site has no printing engine");
    progress("downloading the printing engine", id);
    const zip = await (await fetchOk(new URL(site.manifest.print, site.root))).arrayBuffer();
    progress("starting the printing engine", id);
    engine.py.unpackArchive(zip, "zip", { extractDir: "/carddb" });
    engine.py.runPython("import importlib, os; importlib.invalidate_caches(); os.makedirs('/tmp/carddb-print', exist_ok=True)");
    return engine.py.pyimport("carddb.site.browser_print");
  })();
  printing.catch(() => { printing = null; });  // a failed download may be tried again
  return printing;
}

async function printDeck(engine, data, message) {
  const module = await printingEngine(engine, message.id);
  progress("laying out and drawing the cards", message.id);
  const started = performance.now();
  const out = "/tmp/carddb-print/deck.pdf";
  const result = module.print_deck_json.callKwargs(data.toml, data.cards, JSON.stringify(message.entries),
    JSON.stringify(message.options || {}), { workspace_root: "/carddb/workspace", out, name: message.name || "" });
  let pdf = null;
  if (!JSON.parse(result).error) {
    pdf = engine.py.FS.readFile(out).buffer;
    engine.py.FS.unlink(out);
  }
  return { result, ms: performance.now() - started, pdf };
}

self.onmessage = async ({ data: message }) => {
  if (message.op === "init") {
    if (!ready) {
      ready = start(message.root);
      ready.then((engine) => {
        self.postMessage({ type: "ready", version: engine.version, timings: engine.timings });
        engine.saved.then((ok) => self.postMessage({ type: "snapshot", saved: ok }));
      }, (error) => self.postMessage({ type: "failed", error: String(error && error.message || error) }));
    }
    return;
  }
  try {
    const engine = await ready;
    const reply = await handle(engine, message);
    self.postMessage({ id: message.id, ...reply }, reply.pdf ? [reply.pdf] : []);
  } catch (error) {
    self.postMessage({ id: message.id, error: String(error && error.message || error) });
  }
};
