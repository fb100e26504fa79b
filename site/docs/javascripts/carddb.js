// carddb's page script, loaded once per full page load as an ES module. Material's instant navigation swaps the
// page body without reloading it, so widgets are mounted from `document$` (idempotently), and the rules engine is
// one module Web Worker for the whole visit: navigating away and back never loads it twice.
// Card data and checker results are only ever written with textContent, never parsed as HTML.

const SCRIPT = new URL(import.meta.url);
const SITE_ROOT = new URL("../", SCRIPT);
const MAX_DECK_CHARS = 10 * 1024 * 1024;  // as the command line: carddb/core/decks/file.py MAX_DECK_BYTES
const SHOWN_PROBLEMS = 500;               // a pasted wall of junk must not freeze the page while it renders
const EDITABLE_CHARS = 256 * 1024;        // a textarea of megabytes takes the browser seconds to lay out
const RULE = /^rules\/([a-z0-9][a-z0-9_-]*)\/[A-Za-z0-9_.-]+\.md(?:#([A-Za-z0-9_-]*))?$/;

let manifestPromise = null;
function manifest() {
  manifestPromise ??= fetch(new URL("assets/carddb/manifest.json", SITE_ROOT), { cache: "no-cache" })
    .then((r) => { if (!r.ok) throw new Error(`manifest answered ${r.status}`); return r.json(); });
  return manifestPromise;
}

// ---------------------------------------------------------------------------------------------------------------
// The rules engine (a singleton)

class Engine {
  constructor(timeoutMs) {
    this.state = "loading";
    this.detail = "";
    this.version = "";
    this.listeners = new Set();
    this.pending = new Map();
    this.seq = 0;
    this.started = performance.now();
    this.snapshot = new Promise((resolve) => { this.snapshotSaved = resolve; });  // for tests and the benchmark
    this.worker = new Worker(new URL("checker-worker.js", SCRIPT), { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.fail(`the rules engine stopped (${event.message || "script error"})`);
    const limit = Number(window.CARDDB_ENGINE_TIMEOUT_MS) || timeoutMs || 30000;  // the window value: for tests
    this.timer = setTimeout(() => {
      if (this.state === "loading") this.fail(`the rules engine did not load within ${Math.round(limit / 1000)} s`);
    }, limit);
    // A test's hook (tests/site/conftest.py): a function the engine awaits before it starts, which puts a snapshot
    // made by an earlier visit in this browser's Cache Storage, as a returning visitor has one. Never set by the site.
    const before = typeof window.CARDDB_BEFORE_ENGINE === "function" ? window.CARDDB_BEFORE_ENGINE() : null;
    this.initPosted = Promise.resolve(before).catch(() => {})
      .then(() => this.worker.postMessage({ op: "init", root: SITE_ROOT.href }));  // every request goes after it
  }

  receive(data) {
    if (data.type === "progress") {
      this.detail = data.text;
      if (data.id === undefined) this.notify();
      else if (this.progress) this.progress(data.text);
      return;
    }
    if (data.type === "snapshot") {
      this.snapshotSaved(data.saved);  // the next visit's head start is stored (or could not be)
      return;
    }
    if (data.type === "ready") {
      clearTimeout(this.timer);
      if (this.state !== "loading") return;
      this.state = "ready";
      this.version = data.version;
      this.timings = data.timings;  // milliseconds since the worker started: manifest, loader, pyodide, rules
      this.readyMs = performance.now() - this.started;  // since the worker was created
      this.readyAt = performance.now();                  // since the page started loading
      this.notify();
    } else if (data.type === "failed") {
      this.fail(`the rules engine could not start (${data.error})`);
    } else {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      this.pending.delete(data.id);
      if (data.error) waiting.reject(new Error(data.error));
      else waiting.resolve(data);
    }
  }

  fail(detail) {
    clearTimeout(this.timer);
    if (this.state === "failed") return;
    this.state = "failed";
    this.detail = detail;
    for (const waiting of this.pending.values()) waiting.reject(new Error(detail));
    this.pending.clear();
    this.notify();
  }

  notify() {
    for (const listener of [...this.listeners]) listener(this);
  }

  watch(element, listener) {
    const wrapped = (engine) => {
      if (!element.isConnected) { this.listeners.delete(wrapped); return; }
      listener(engine);
    };
    this.listeners.add(wrapped);
    listener(this);
  }

  request(message, transfer = []) {
    if (this.state === "failed") return Promise.reject(new Error(this.detail));
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.initPosted.then(() => this.worker.postMessage({ ...message, id }, transfer));
    });
  }
}

let engine = null;
function getEngine(timeoutMs) {
  engine ??= new Engine(timeoutMs);
  window.carddbEngine = engine;  // for the tests and the benchmark: one engine per visit
  return engine;
}

function showEngine(status, state) {
  status.dataset.state = state.state;
  status.textContent = state.state === "loading" ? `Loading the rules engine…${state.detail ? ` (${state.detail})` : ""}`
    : state.state === "ready" ? `Rules engine ready (Pyodide ${state.version}, running in your browser).`
      : `The checker is unavailable: ${state.detail}. Reload the page to try again, or use the command line.`;
}

function make(tag, text, className) {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
}

function ruleLink(rule) {
  const match = RULE.exec(rule || "");
  if (!match) return null;
  const link = make("a", "rule");
  link.href = new URL(`games/${match[1]}/rulebook/${match[2] ? "#" + match[2] : ""}`, SITE_ROOT).href;
  return link;
}

// ---------------------------------------------------------------------------------------------------------------
// The deck checker

// Every finished check bumps data-checks, so a reader (or a test) can wait for the answer to its own request.
function finished(box) {
  box.dataset.checks = String(Number(box.dataset.checks || 0) + 1);
}

function showResult(box, result, ms, labels = {}) {
  box.replaceChildren();
  const problems = result.problems || [];
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  box.dataset.verdict = result.legal ? "legal" : "illegal";
  box.dataset.codes = problems.map((p) => p.code).sort().join(",");
  if (ms !== undefined) box.dataset.checkMs = ms.toFixed(2);
  const zones = Object.entries(result.zones || {}).map(([zone, count]) => `${labels[zone] || zone} ${count}`)
    .join(", ");
  const verdict = result.legal ? "Legal deck" : "Not legal";
  const counts = [errors && `${errors} error${errors > 1 ? "s" : ""}`, warnings && `${warnings} warning${warnings > 1 ? "s" : ""}`]
    .filter(Boolean).join(", ");
  box.append(make("p", `${verdict}${zones ? ` (${zones})` : ""}${counts ? `: ${counts}.` : "."}`,
    `carddb-verdict carddb-${box.dataset.verdict}`));
  if (!problems.length) { finished(box); return; }
  const list = make("ul", undefined, "carddb-problems");
  for (const problem of problems.slice(0, SHOWN_PROBLEMS)) {
    const item = make("li", undefined, `carddb-problem carddb-sev-${problem.severity}`);
    item.dataset.code = problem.code;
    item.append(make("code", problem.code), " ", make("span", problem.severity, "carddb-severity"), " ",
      make("span", problem.message, "carddb-message"));
    if (problem.line) item.append(" ", make("span", `(line ${problem.line})`, "carddb-line"));
    const link = ruleLink(problem.rule);
    if (link) item.append(" ", link);
    list.append(item);
  }
  box.append(list);
  if (problems.length > SHOWN_PROBLEMS) box.append(make("p", `… and ${problems.length - SHOWN_PROBLEMS} more problems.`));
  finished(box);
}

function showError(box, message) {
  box.replaceChildren(make("p", message, "carddb-verdict carddb-error"));
  box.dataset.verdict = "error";
  box.dataset.codes = "";
  finished(box);
}

async function fillFormats(form, gameId) {
  const entry = (await manifest()).games[gameId];
  if (!entry) return;
  const select = form.elements.format;
  select.replaceChildren(...entry.formats.map((f) => {
    const option = make("option", f.label);
    option.value = f.id;
    option.selected = f.id === entry.default_format;
    return option;
  }));
}

function mountChecker(root) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "1";
  const form = root.querySelector("form");
  const status = root.querySelector("[data-engine]");
  const box = root.querySelector("[data-result]");
  const button = form.querySelector("button[type=submit]");
  const fileLabel = root.querySelector("[data-filename]");
  let filename = "";
  let held = null;  // a deck too large to show in the textarea, checked as it came
  let touched = false;  // the reader typed, pasted or opened a deck: a sample deck arriving after it is not wanted
  const current = getEngine(Number(root.dataset.timeoutMs));
  current.watch(root, (state) => {
    showEngine(status, state);
    button.disabled = state.state !== "ready";
    if (state.state === "failed") showError(box, `Checker unavailable: ${state.detail}.`);
  });

  function setDeck(text, label) {
    if (text.length > EDITABLE_CHARS) {
      held = text;
      form.elements.deck.value = "";
      fileLabel.textContent = `${label}: ${(text.length / 1048576).toFixed(1)} MB, too large to edit here; `
        + "it is checked as it is.";
    } else {
      held = null;
      form.elements.deck.value = text;
      fileLabel.textContent = label;
    }
  }

  async function check() {
    const deck = held ?? form.elements.deck.value;
    if (deck.length > MAX_DECK_CHARS) {
      showError(box, `That deck is ${(deck.length / 1048576).toFixed(1)} MB; a deck may be at most 10 MB.`);
      return;
    }
    box.dataset.verdict = "checking";
    try {
      const reply = await current.request({ op: "check", game: form.elements.game.value,
        format: form.elements.format.value, deck, filename });
      const result = JSON.parse(reply.result);
      const labels = (await manifest()).games[form.elements.game.value]?.zones || {};
      if (result.error) showError(box, result.error);
      else showResult(box, result, reply.ms, labels);
    } catch (error) {
      showError(box, `The check failed: ${error.message}`);
    }
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); check(); });
  form.elements.game.addEventListener("change", () => fillFormats(form, form.elements.game.value));
  form.elements.deck.addEventListener("input", () => {
    touched = true;
    held = null;
    filename = "";
    fileLabel.textContent = "";
  });
  form.elements.deck.addEventListener("paste", (event) => {
    const text = event.clipboardData ? event.clipboardData.getData("text") : "";
    if (text.length <= EDITABLE_CHARS) return;
    event.preventDefault();
    touched = true;
    filename = "";
    setDeck(text, "Pasted deck");
  });
  form.elements.file.addEventListener("change", async () => {
    const file = form.elements.file.files[0];
    if (!file) return;
    touched = true;
    if (file.size > MAX_DECK_CHARS) {
      showError(box, `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; a deck file may be at most 10 MB.`);
      return;
    }
    try {
      const bytes = await file.arrayBuffer();
      const decoded = JSON.parse((await current.request({ op: "decode", bytes, filename: file.name }, [bytes])).result);
      if (decoded.error) { showError(box, decoded.error); return; }
      filename = file.name;
      setDeck(decoded.text, `Opened ${file.name}`);
      await check();
    } catch (error) {
      showError(box, `Could not open ${file.name}: ${error.message}`);
    }
  });

  // ?deck=NAME opens one of the game's sample decks (the sample decks page links here), unless the reader has
  // started a deck of their own before it arrived. data-sample-deck says which happened.
  const wanted = new URLSearchParams(location.search).get("deck");
  if (wanted) {
    manifest().then(async (m) => {
      const path = m.games[root.dataset.game]?.decks?.[wanted];
      if (!path) return;
      const response = await fetch(new URL(path, SITE_ROOT));
      if (!response.ok) return;
      const text = await response.text();
      if (touched) {
        root.dataset.sampleDeck = "not opened";
        return;
      }
      setDeck(text, `Sample deck ${wanted}`);
      root.dataset.sampleDeck = "opened";
      filename = wanted;
      current.watch(root, (state) => { if (state.state === "ready" && !box.dataset.verdict) check(); });
    });
  }
}

// A "+" or "−" clicked before gallery.js has wired the buttons (it waits for the game's card data) is kept here and
// clicked again once they answer (``takeEarlyClicks``), not lost.
const earlyClicks = [];
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-add-buttons] button[data-add], [data-add-buttons] button[data-remove]");
  if (button && !button.closest("[data-add-buttons][data-wired]")) earlyClicks.push(button);
}, true);
function takeEarlyClicks(root) {
  const mine = earlyClicks.filter((button) => root.contains(button));
  earlyClicks.splice(0, earlyClicks.length, ...earlyClicks.filter((button) => !root.contains(button)));
  return mine;
}

// What the page modules (gallery.js, builder.js) share with this one.
const context = { getEngine, make, showEngine, manifest, ruleLink, SITE_ROOT, takeEarlyClicks };

// What the theme leaves out for assistive technology: its search dialog has no name, and a wide table scrolls in a
// box that a keyboard cannot reach (the construction tables on a phone).
function nameThemeRegions() {
  document.querySelector(".md-search[role=dialog]:not([aria-label])")?.setAttribute("aria-label", "Search the site");
  document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach((wrap) => {
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", "Table (scrolls sideways)");
  });
}

function mountAll() {
  nameThemeRegions();
  document.querySelectorAll("[data-deck-checker]").forEach(mountChecker);
  const galleries = document.querySelectorAll("[data-card-gallery]");
  const cardPages = document.querySelectorAll("[data-card-page]");
  if (galleries.length || cardPages.length) {
    import("./gallery.js").then((gallery) => {
      galleries.forEach((root) => gallery.mountGallery(root, context));
      cardPages.forEach((root) => gallery.mountCardPage(root, context));
    });
  }
  const builders = document.querySelectorAll("[data-deck-builder]");
  if (builders.length) import("./builder.js").then((builder) => builders.forEach((root) => builder.mountBuilder(root, context)));
  const helpers = document.querySelectorAll("[data-play]");  // the play helpers (Play pages, ssq's turn calculator)
  if (helpers.length) {
    import("./play.js").then((play) => helpers.forEach((root) => play.mount(root, { getEngine, make, showEngine,
      ruleLink })));
  }
}

// The first page is mounted as soon as it is parsed (a module runs then), without waiting for Material's own start;
// pages that instant navigation swaps in arrive through document$ (mounting is idempotent).
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
if (window.document$) window.document$.subscribe(mountAll);
