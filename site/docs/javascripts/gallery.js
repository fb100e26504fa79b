// The card gallery and the card pages: plain filters that work at once (name or text, kind, the game's fields), a
// search box in the command line's search language (answered by the rules engine, started when it is first
// needed), and buttons that add a card to the deck being built, which is checked after every change.
// Card data is only read from data- attributes and written with textContent.

import { deckStore, lastCheck, lazyChecker, onChecked, rememberedCheck, setZoneOrder } from "./deck.js";
import { quickSearch } from "./quicksearch.js";

const SEPARATOR = "\u001f";
const galleries = new Map();

export async function galleryData(ctx, game) {
  if (!galleries.has(game)) {
    galleries.set(game, ctx.manifest().then(async (m) => {
      const entry = m.games[game];
      if (!entry || !entry.gallery) throw new Error(`no cards for ${game} on this site`);
      const response = await fetch(new URL(entry.gallery, ctx.SITE_ROOT));
      if (!response.ok) throw new Error(`${entry.gallery} answered ${response.status}`);
      const data = await response.json();
      data.byKey = new Map(data.cards.map((card) => [card.key, card]));
      data.byStem = new Map(data.cards.map((card) => [card.stem, card]));
      data.zoneLabel = Object.fromEntries(data.zones.map((z) => [z.id, z.label]));
      setZoneOrder(game, data.zones.map((z) => z.id));
      return data;
    }));
  }
  return galleries.get(game);
}

// The deck's counts and verdict in one line, for the gallery's deck bar and the card pages.
export function deckSummary(store, data, outcome) {
  const counts = data.zones.map((z) => `${z.label} ${store.total(z.id)}`).join(" · ");
  if (store.isEmpty()) return { text: "Your deck is empty.", verdict: "empty" };
  if (!outcome || outcome.changedAt !== store.changedAt) {
    const kept = rememberedCheck(store);  // this very deck, checked on an earlier page: said until checked again
    return { text: `${counts}. ${kept ? `${verdictWords(kept)} when last checked; checking again…` : "Checking…"}`,
      verdict: "checking" };
  }
  const result = outcome.result;
  if (result.error) return { text: `${counts}. ${result.error}`, verdict: "error" };
  return { text: `${counts}. ${verdictWords(result)}.`, verdict: result.legal ? "legal" : "illegal" };
}

function verdictWords(result) {
  const errors = result.problems.filter((p) => p.severity === "error").length;
  const warnings = result.problems.length - errors;
  const said = result.legal ? "Legal" : `Not legal: ${errors} error${errors === 1 ? "" : "s"}`;
  return `${said}${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}`;
}

function wireAddButtons(root, ctx, store, data) {
  const check = lazyChecker(root, ctx.getEngine, store);
  root.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-add], button[data-remove]");
    if (!button || !root.contains(button)) return;
    const holder = button.closest("[data-key]");
    const key = holder && holder.dataset.key;
    if (!key || !data.byKey.has(key)) return;
    if (button.dataset.add) store.add(button.dataset.add, key);
    else store.remove(button.dataset.remove, key);
    check();
  });
  root.querySelectorAll("[data-add-buttons]").forEach((holder) => { holder.dataset.wired = "1"; });
  for (const button of ctx.takeEarlyClicks(root)) button.click();  // clicked before this answered
}

function showInDeck(root, store, data) {
  for (const holder of root.querySelectorAll("[data-add-buttons]")) {
    const key = holder.dataset.key;
    const badge = holder.querySelector("[data-in-deck]");
    if (badge) {
      const where = data.zones.filter((z) => store.count(z.id, key)).map((z) => `${store.count(z.id, key)} in ${z.label}`);
      badge.textContent = where.join(", ");
      holder.closest("li")?.classList.toggle("carddb-indeck", where.length > 0);
    }
    for (const count of holder.querySelectorAll("[data-in-zone]")) {
      const n = store.count(count.dataset.inZone, key);
      count.textContent = n ? `${n} in the deck` : "";
    }
  }
}

function mountDeckStatus(element, ctx, store, data) {
  const builder = new URL(`games/${store.game}/checker/`, ctx.SITE_ROOT).href;
  let last = lastCheck(store.game);
  const render = () => {
    const summary = deckSummary(store, data, last);
    element.replaceChildren(ctx.make("span", summary.text, `carddb-deck-${summary.verdict}`));
    element.dataset.verdict = summary.verdict;
    if (!store.isEmpty()) {
      const link = ctx.make("a", "Open the deck builder");
      link.href = builder;
      element.append(" ", link);
    }
  };
  onChecked(store.game, element, (outcome) => { last = outcome; render(); });
  store.watch(element, render);
}

// The index the build wrote for the search box (carddb.core.search.query.search_index), fetched once a page.
const indexes = new Map();
function searchIndex(ctx, game) {
  if (!indexes.has(game)) {
    indexes.set(game, ctx.manifest().then(async (m) => {
      const path = m.games[game] && m.games[game].search;
      if (!path) return null;
      const response = await fetch(new URL(path, ctx.SITE_ROOT));
      return response.ok ? response.json() : null;
    }).catch(() => null));
  }
  return indexes.get(game);
}

function showMatches(root, status, query, keys, by) {
  root.queryKeys = new Set(keys);
  status.dataset.state = "done";
  status.dataset.answeredBy = by;  // "index" while the engine loads, then "engine"
  status.textContent = `${keys.length} card${keys.length === 1 ? "" : "s"} match ${query}.`;
}

function mountQuery(root, ctx, form, apply) {
  const input = form.elements["search-query"];
  const status = root.querySelector("[data-query-status]");
  let timer = null;
  let asked = "";
  const run = async () => {
    const query = input.value.trim();
    asked = query;
    if (!query) { root.queryKeys = null; status.textContent = ""; delete status.dataset.state; apply(); return; }
    const engine = ctx.getEngine();
    if (engine.state !== "ready") {
      // Answered at once from the built index (the engine's answer replaces it once the engine is ready)
      const quick = quickSearch(await searchIndex(ctx, root.dataset.game), query);
      if (asked !== query) return;
      if (quick) { showMatches(root, status, query, quick, "index"); apply(); } else {
        status.dataset.state = "loading";
        status.textContent = "The search language runs in the rules engine, which is loading…";
      }
      engine.watch(status, (state) => { if (state.state === "ready" && asked === query) run(); });
      return;
    }
    try {
      const reply = JSON.parse((await engine.request({ op: "search", game: root.dataset.game, query })).result);
      if (asked !== query) return;
      if (reply.error) {
        root.queryKeys = new Set();
        status.dataset.state = "error";
        status.textContent = reply.error;
      } else {
        showMatches(root, status, query, reply.keys, "engine");
      }
    } catch (error) {
      status.dataset.state = "error";
      status.textContent = `The search failed: ${error.message}`;
    }
    apply();
  };
  // The engine starts with the page (once it is idle: the faces come first), so that a query typed on a first
  // visit does not wait for Pyodide's whole start; focusing the box starts it at once if it has not yet.
  (window.requestIdleCallback || ((fn) => setTimeout(fn, 500)))(() => ctx.getEngine(), { timeout: 2000 });
  input.addEventListener("focus", () => { ctx.getEngine(); searchIndex(ctx, root.dataset.game); }, { once: true });
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, 200); });
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") { clearTimeout(timer); run(); } });
  // This module is imported after the page has loaded: a query typed before then had no listener, so it is run now.
  if (input.value.trim()) run();
}

export function mountGallery(root, ctx) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "1";
  root.dataset.mountedAt = performance.now().toFixed(0);  // for the benchmark: when the filters started to work
  const form = root.querySelector("form");
  const cards = [...root.querySelectorAll("li.carddb-card")];
  const count = root.querySelector(".carddb-count");
  const fieldSelects = [...form.querySelectorAll("select[data-field]")].filter((s) => s.name !== "type");
  const apply = () => {
    const text = (form.elements.text.value || "").trim().toLowerCase();
    const kind = form.elements.kind.value;
    const type = form.elements.type ? form.elements.type.value : "";
    const wanted = fieldSelects.filter((s) => s.value).map((s) => [s.dataset.field, s.value]);
    let shown = 0;
    for (const card of cards) {
      const visible = (!kind || card.dataset.kind === kind)
        && (!type || card.dataset.types.split(SEPARATOR).includes(type))
        && (!text || card.dataset.search.includes(text))
        && wanted.every(([key, value]) => (card.getAttribute(`data-f-${key}`) || "").split(SEPARATOR).includes(value))
        && (!root.queryKeys || root.queryKeys.has(card.dataset.key));
      card.hidden = !visible;
      shown += visible;
    }
    count.textContent = `${shown} of ${cards.length} cards`;
  };
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("input", (event) => { if (event.target.name !== "search-query") apply(); });
  form.addEventListener("change", (event) => { if (event.target.name !== "search-query") apply(); });
  mountQuery(root, ctx, form, apply);
  apply();
  const bar = root.querySelector("[data-deck-bar]");
  if (!bar) return;
  galleryData(ctx, root.dataset.game).then((data) => {
    const store = deckStore(root.dataset.game);
    wireAddButtons(root, ctx, store, data);
    store.watch(root, () => showInDeck(root, store, data));
    mountDeckStatus(bar, ctx, store, data);
  }).catch((error) => { bar.textContent = `The deck builder is unavailable: ${error.message}`; });
}

export function mountCardPage(root, ctx) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "1";
  const status = root.querySelector("[data-deck-status]");
  if (!status) return;
  galleryData(ctx, root.dataset.game).then((data) => {
    const store = deckStore(root.dataset.game);
    wireAddButtons(root, ctx, store, data);
    store.watch(root, () => showInDeck(root, store, data));
    mountDeckStatus(status, ctx, store, data);
  }).catch((error) => { status.textContent = `The deck builder is unavailable: ${error.message}`; });
}
