// The deck being built, one per game, kept in the browser's localStorage (nothing is sent anywhere) and shared by
// every page of the visit: the gallery and the card pages add to it, the deck builder shows and checks it. A
// module singleton, so Material's instant navigation keeps it; other tabs' changes arrive by the storage event.
//
// A deck is {format, zones: {zone: {cardKey: count}}}; as a link it is #deck=FORMAT;ZONE:STEM*N,STEM*N;ZONE:...
// with the cards' page stems (lower-case letters, digits and dashes), so a link is short and readable.

const PREFIX = "carddb.deck.";
const stores = new Map();

class DeckStore {
  constructor(game) {
    this.game = game;
    this.listeners = new Set();
    this.changedAt = 0;
    this.load();
    window.addEventListener("storage", (event) => {
      if (event.key === PREFIX + game) { this.load(); this.notify(); }
    });
  }

  load() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(PREFIX + this.game) || "null"); } catch { saved = null; }
    this.format = (saved && typeof saved.format === "string") ? saved.format : "";
    this.zones = {};
    const zones = saved && typeof saved.zones === "object" && saved.zones ? saved.zones : {};
    for (const [zone, cards] of Object.entries(zones)) {
      if (!cards || typeof cards !== "object") continue;
      this.zones[zone] = {};
      for (const [key, count] of Object.entries(cards)) {
        const n = Math.floor(Number(count));
        if (n > 0) this.zones[zone][key] = Math.min(n, 9999);
      }
    }
  }

  save() {
    this.changedAt = performance.now();
    try {
      localStorage.setItem(PREFIX + this.game, JSON.stringify({ format: this.format, zones: this.zones }));
    } catch { /* storage full or refused: the deck still lives in this page */ }
    this.notify();
  }

  watch(element, listener) {
    const wrapped = () => {
      if (!element.isConnected) { this.listeners.delete(wrapped); return; }
      listener(this);
    };
    this.listeners.add(wrapped);
    listener(this);
  }

  notify() { for (const listener of [...this.listeners]) listener(this); }

  count(zone, key) { return (this.zones[zone] && this.zones[zone][key]) || 0; }

  total(zone) { return Object.values(this.zones[zone] || {}).reduce((a, b) => a + b, 0); }

  copies(key) {
    return Object.values(this.zones).reduce((sum, cards) => sum + (cards[key] || 0), 0);
  }

  isEmpty() { return Object.keys(this.zones).every((zone) => this.total(zone) === 0); }

  add(zone, key, n = 1) {
    this.zones[zone] ??= {};
    this.zones[zone][key] = this.count(zone, key) + n;
    if (this.zones[zone][key] <= 0) delete this.zones[zone][key];
    this.save();
  }

  remove(zone, key, n = 1) { this.add(zone, key, -Math.min(n, this.count(zone, key))); }

  setFormat(format) { this.format = format; this.save(); }

  replace(format, entries) {
    this.format = format ?? this.format;
    this.zones = {};
    for (const { zone, key, count } of entries) {
      this.zones[zone] ??= {};
      this.zones[zone][key] = (this.zones[zone][key] || 0) + count;
    }
    this.save();
  }

  clear() { this.zones = {}; this.save(); }

  // [{zone, key, count}] in the game's zone order, cards in the order they were added.
  entries(zoneOrder = []) {
    const zones = [...zoneOrder, ...Object.keys(this.zones).filter((z) => !zoneOrder.includes(z))];
    const out = [];
    for (const zone of zones) {
      for (const [key, count] of Object.entries(this.zones[zone] || {})) if (count > 0) out.push({ zone, key, count });
    }
    return out;
  }

  toFragment(stemOf, zoneOrder) {
    const zones = {};
    for (const { zone, key, count } of this.entries(zoneOrder)) {
      const stem = stemOf(key);
      if (stem) (zones[zone] ??= []).push(count === 1 ? stem : `${stem}*${count}`);
    }
    const parts = Object.entries(zones).map(([zone, cards]) => `${zone}:${cards.join(",")}`);
    return `#deck=${[this.format || "", ...parts].join(";")}`;
  }
}

export function deckStore(game) {
  if (!stores.has(game)) stores.set(game, new DeckStore(game));
  return stores.get(game);
}

// A link's fragment back into {format, entries, problems}: keys from stems, each count held to limits.copies and
// the deck to limits.deck cards (twice what the game allows: an over-limit deck still opens and shows its problems).
// What cannot be placed (a card the site does not have, a zone the game does not have, a count that is no number)
// is left out and described in `problems`, one line each. A link that is not even readable gives {error}.
export function parseFragment(hash, keyOf, zones, limits) {
  const match = /^#deck=([^&]*)/.exec(hash || "");
  if (!match) return null;
  let text;
  try { text = decodeURIComponent(match[1]); } catch {
    return { error: "This link's deck cannot be read (it is damaged or cut short): nothing was opened." };
  }
  const [format, ...parts] = text.split(";");
  const entries = [];
  const unknownCards = [];
  const unknownZones = new Map();
  let badCounts = 0;
  let heldLines = 0;
  let total = 0;
  let dropped = 0;
  const sums = new Map();
  for (const part of parts) {
    const [zone, list] = part.split(":");
    if (!zone || !list) continue;
    for (const item of list.split(",")) {
      const [stem, n] = item.split("*");
      const count = n === undefined ? 1 : Math.floor(Number(n));
      if (!(count > 0)) { badCounts += 1; continue; }
      if (!zones.includes(zone)) { unknownZones.set(zone, (unknownZones.get(zone) || 0) + count); continue; }
      const key = keyOf(stem);
      if (!key) { unknownCards.push(stem); continue; }
      const line = `${zone}\n${key}`;  // a card listed twice in a zone is held as one line
      const before = sums.get(line) || 0;
      let held = Math.min(count, limits.copies - before);
      if (held < count) heldLines += 1;
      held = Math.min(held, limits.deck - total);
      if (held <= 0) { if (total >= limits.deck) dropped += 1; continue; }
      total += held;
      sums.set(line, before + held);
      entries.push({ zone, key, count: held });
    }
  }
  const problems = [];
  const shown = (list) => list.slice(0, 5).join(", ") + (list.length > 5 ? ` and ${list.length - 5} more` : "");
  if (unknownCards.length) problems.push(`${unknownCards.length} card${unknownCards.length === 1 ? " is" : "s are"} not on this site: ${shown(unknownCards)}.`);
  for (const [zone, count] of unknownZones) problems.push(`${count} card${count === 1 ? "" : "s"} in a zone this game does not have (${zone}).`);
  if (badCounts) problems.push(`${badCounts} line${badCounts === 1 ? " has" : "s have"} no readable count.`);
  if (heldLines) problems.push(`${heldLines} count${heldLines === 1 ? " was" : "s were"} held to ${limits.copies} copies, twice what the game allows.`);
  if (dropped) problems.push(`The deck was held to ${limits.deck} cards, twice what the game allows: ${dropped} more line${dropped === 1 ? "" : "s"} left out.`);
  return { format, entries, problems };
}

// One check at a time per game: a change while a check runs is checked when it ends (only the latest).
const checks = new Map();
function checkState(game) {
  if (!checks.has(game)) checks.set(game, { running: false, again: false, listeners: new Set(), last: null, zoneOrder: [] });
  return checks.get(game);
}

export function setZoneOrder(game, zones) { checkState(game).zoneOrder = zones; }

export function lastCheck(game) { return checkState(game).last; }

// Calls fn(outcome) after every check of the game's deck while element is in the page.
export function onChecked(game, element, fn) {
  const state = checkState(game);
  const listener = (outcome) => {
    if (!element.isConnected) { state.listeners.delete(listener); return; }
    fn(outcome);
  };
  state.listeners.add(listener);
}

// The last verdict of each game's deck, kept with the deck it was given for: a page opened on the same deck shows
// it at once, "as last checked", instead of "Checking…" for the whole of the rules engine's start (a first visit's
// page waits ten seconds and more for it); the engine's own check replaces it as soon as it is ready.
const VERDICT = "carddb.verdict.";

function deckSignature(format, entries) { return JSON.stringify([format || "", entries]); }

function rememberVerdict(game, signature, result) {
  if (result.error) return;
  try { localStorage.setItem(VERDICT + game, JSON.stringify({ deck: signature, result })); } catch { /* full */ }
}

// The remembered result of a check of exactly this deck ({legal, problems}), or null.
export function rememberedCheck(store) {
  try {
    const kept = JSON.parse(localStorage.getItem(VERDICT + store.game) || "null");
    const signature = deckSignature(store.format, store.entries(checkState(store.game).zoneOrder));
    return kept && kept.deck === signature && kept.result && Array.isArray(kept.result.problems) ? kept.result : null;
  } catch { return null; }
}

export function scheduleCheck(engine, store) {
  const state = checkState(store.game);
  if (engine.state !== "ready") return;
  if (state.running) { state.again = true; return; }
  state.running = true;
  const changedAt = store.changedAt;
  const entries = store.entries(state.zoneOrder);
  const signature = deckSignature(store.format, entries);
  engine.request({ op: "builder-check", game: store.game, format: store.format, entries })
    .then((reply) => ({ result: JSON.parse(reply.result), ms: reply.ms, entries, changedAt }))
    .catch((error) => ({ result: { error: error.message }, entries, changedAt }))
    .then((outcome) => {
      rememberVerdict(store.game, signature, outcome.result);
      state.last = outcome;
      state.running = false;
      for (const fn of [...state.listeners]) fn(outcome);
      // Asked again while this check ran: check again only if the deck changed since it started (a second
      // request for the same deck would re-render the same verdict, moving what the reader is about to click).
      if (state.again) {
        state.again = false;
        if (store.changedAt !== changedAt) scheduleCheck(engine, store);
      }
    });
}

// A checker for pages where the engine is optional (gallery, card pages): the engine starts with the first change,
// or at once when the deck already holds cards; each change is then checked.
export function lazyChecker(element, getEngine, store) {
  let engine = null;
  const check = () => {
    if (!engine) {
      engine = getEngine();
      engine.watch(element, (state) => { if (state.state === "ready") scheduleCheck(engine, store); });
    }
    scheduleCheck(engine, store);
  };
  if (!store.isEmpty()) check();
  return check;
}
