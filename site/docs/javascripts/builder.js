// The deck builder: the deck being built as faces grouped by zone and kind, with counts and a chart per axis the
// game declares; every change checked by the rules engine (carddb/core in a Web Worker) and each problem shown
// beside the card it names, its rule linked. Shared as a link (the deck in the fragment), opened from a deck file
// or pasted list, downloaded in the command line's deck formats, printed to a proxy PDF in the browser.
// Everything from a card or a deck file is written with textContent.

import { deckStore, lastCheck, onChecked, parseFragment, scheduleCheck } from "./deck.js";
import { galleryData } from "./gallery.js";
import { mountPlaytest } from "./playtest.js";

function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function deckName(game) { return `${game}-deck`; }

// Which entry (zone and card) each problem belongs to: by its line (the entry's place), else by its card name.
function placeProblems(outcome, data) {
  const byEntry = new Map();
  const byZone = new Map();
  const deckWide = [];
  for (const problem of outcome.result.problems || []) {
    let entry = problem.line ? outcome.entries[problem.line - 1] : null;
    if (!entry && problem.card) {
      entry = outcome.entries.find((e) => e.key === problem.card || data.byKey.get(e.key)?.name === problem.card);
    }
    if (entry) {
      const id = `${entry.zone}\u001f${entry.key}`;
      if (!byEntry.has(id)) byEntry.set(id, []);
      byEntry.get(id).push(problem);
    } else if (problem.zone) {
      if (!byZone.has(problem.zone)) byZone.set(problem.zone, []);
      byZone.get(problem.zone).push(problem);
    } else {
      deckWide.push(problem);
    }
  }
  return { byEntry, byZone, deckWide };
}

function problemList(ctx, problems) {
  const list = ctx.make("ul", undefined, "carddb-problems");
  for (const problem of problems) {
    const item = ctx.make("li", undefined, `carddb-problem carddb-sev-${problem.severity}`);
    item.dataset.code = problem.code;
    item.append(ctx.make("code", problem.code), " ", ctx.make("span", problem.message, "carddb-message"));
    const link = ctx.ruleLink(problem.rule);
    if (link) item.append(" ", link);
    list.append(item);
  }
  return list;
}

function chart(ctx, axis, entries, data) {
  const counts = new Map();
  let without = 0;  // cards without the field (a spell's level): said in the caption, not drawn as a "(none)" bar
  for (const { key, count } of entries) {
    const values = data.byKey.get(key)?.axes?.[axis.key] || [];
    if (!values.length) without += count;
    for (const value of values) counts.set(value, (counts.get(value) || 0) + count);
  }
  if (!counts.size) return null;
  let rows = [...counts.entries()];
  rows = axis.numeric
    ? rows.sort((a, b) => (Number(a[0]) - Number(b[0])) || String(a[0]).localeCompare(String(b[0])))
    : rows.sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
  const most = Math.max(...rows.map((r) => r[1]));
  const figure = ctx.make("figure", undefined, "carddb-chart");
  figure.dataset.axis = axis.key;
  const caption = axis.numeric ? `${axis.label} curve` : axis.label;
  figure.append(ctx.make("figcaption", without ? `${caption} (${without} without)` : caption));
  const table = ctx.make("div", undefined, axis.numeric ? "carddb-bars carddb-curve" : "carddb-bars");
  for (const [value, n] of rows) {
    const row = ctx.make("div", undefined, "carddb-bar");
    row.dataset.value = String(value);
    row.dataset.count = String(n);
    const bar = ctx.make("span", undefined, "carddb-bar-fill");
    bar.style.setProperty("--share", `${Math.round((n / most) * 100)}%`);
    row.append(ctx.make("span", String(value), "carddb-bar-label"), bar, ctx.make("span", String(n), "carddb-bar-count"));
    table.append(row);
  }
  figure.append(table);
  return figure;
}

function tile(ctx, entry, card, problems) {
  const item = ctx.make("li", undefined, "carddb-deckcard");
  item.dataset.key = entry.key;
  item.dataset.zone = entry.zone;
  item.dataset.count = String(entry.count);
  const page = new URL(`games/${ctx.game}/cards/${card ? card.stem : ""}/`, ctx.SITE_ROOT).href;
  const face = ctx.make("a", undefined, "carddb-deckface");
  face.href = page;
  if (card && card.face) {
    const img = document.createElement("img");
    img.src = new URL(card.face, ctx.SITE_ROOT).href;
    img.alt = entry.key;
    // The face's box is reserved before the picture arrives: each check re-renders the deck, and without it the
    // panel below jumped as faces reloaded, under the reader's pointer.
    img.width = ctx.faceWidth;  // the face's own pixels: the style sheet scales it, the ratio is exact
    img.height = ctx.faceHeight;
    img.loading = "lazy";
    face.append(img);
  } else {
    face.append(ctx.make("span", entry.key, "carddb-noface"));
  }
  face.append(ctx.make("span", `×${entry.count}`, "carddb-copies"));
  item.append(face);
  const caption = ctx.make("div", undefined, "carddb-deckcaption");
  caption.append(ctx.make("span", entry.key, "carddb-name"));
  const plus = ctx.make("button", "+", "carddb-plus");
  plus.type = "button";
  plus.dataset.add = entry.zone;
  plus.setAttribute("aria-label", `One more ${entry.key}`);
  const minus = ctx.make("button", "−", "carddb-minus");
  minus.type = "button";
  minus.dataset.remove = entry.zone;
  minus.setAttribute("aria-label", `One fewer ${entry.key}`);
  caption.append(minus, plus);
  item.append(caption);
  if (problems && problems.length) {
    item.classList.add(problems.some((p) => p.severity === "error") ? "carddb-has-error" : "carddb-has-warning");
    item.append(problemList(ctx, problems));
  }
  return item;
}

function renderDeck(root, ctx, store, data, outcome) {
  const view = root.querySelector("[data-deck-view]");
  const charts = root.querySelector("[data-charts]");
  const box = root.querySelector("[data-builder-result]");
  const entries = store.entries(data.zones.map((z) => z.id));
  const current = outcome && outcome.changedAt === store.changedAt ? outcome : null;
  const placed = current && !current.result.error ? placeProblems(current, data)
    : { byEntry: new Map(), byZone: new Map(), deckWide: [] };
  // The verdict
  box.replaceChildren();
  if (!entries.length) {
    box.dataset.verdict = "empty";
    box.dataset.codes = "";
  } else if (!current) {
    box.dataset.verdict = "checking";
    box.append(ctx.make("p", "Checking…", "carddb-verdict"));
  } else if (current.result.error) {
    box.dataset.verdict = "error";
    box.append(ctx.make("p", current.result.error, "carddb-verdict carddb-error"));
  } else {
    const result = current.result;
    const errors = result.problems.filter((p) => p.severity === "error").length;
    const warnings = result.problems.length - errors;
    box.dataset.verdict = result.legal ? "legal" : "illegal";
    box.dataset.codes = result.problems.map((p) => p.code).sort().join(",");
    box.dataset.checkMs = (current.ms || 0).toFixed(2);
    const zones = data.zones.map((z) => `${z.label} ${result.zones[z.id] ?? 0}`).join(", ");
    const counts = [errors && `${errors} error${errors > 1 ? "s" : ""}`, warnings && `${warnings} warning${warnings > 1 ? "s" : ""}`]
      .filter(Boolean).join(", ");
    box.append(ctx.make("p", `${result.legal ? "Legal deck" : "Not legal"} (${zones})${counts ? `: ${counts}.` : "."}`,
      `carddb-verdict carddb-${box.dataset.verdict}`));
    if (placed.deckWide.length) box.append(problemList(ctx, placed.deckWide));
  }
  // The charts
  charts.replaceChildren();
  for (const axis of data.axes) {
    const figure = chart(ctx, axis, entries, data);
    if (figure) charts.append(figure);
  }
  // The deck, zone by zone, kind by kind
  view.replaceChildren();
  if (!entries.length) {
    const empty = ctx.make("p", "The deck is empty. Add cards from the ");
    const link = ctx.make("a", "gallery");
    link.href = new URL(`games/${ctx.game}/cards/`, ctx.SITE_ROOT).href;
    empty.append(link, ", or open a deck file or paste a deck list below.");
    view.append(empty);
  }
  for (const zone of data.zones) {
    const inZone = entries.filter((e) => e.zone === zone.id);
    const zoneProblems = placed.byZone.get(zone.id) || [];
    if (!inZone.length && !zoneProblems.length) continue;
    const section = ctx.make("section", undefined, "carddb-zone");
    section.dataset.zone = zone.id;
    const total = inZone.reduce((a, e) => a + e.count, 0);
    section.append(ctx.make("h3", `${zone.label}: ${total} card${total === 1 ? "" : "s"} (${zone.size})`));
    if (zoneProblems.length) section.append(problemList(ctx, zoneProblems));
    const kinds = [...new Set(inZone.map((e) => data.byKey.get(e.key)?.kind || ""))];
    for (const kind of kinds) {
      const ofKind = inZone.filter((e) => (data.byKey.get(e.key)?.kind || "") === kind);
      const n = ofKind.reduce((a, e) => a + e.count, 0);
      section.append(ctx.make("h4", `${data.kinds[kind] || kind || "Unknown cards"} (${n})`));
      const list = ctx.make("ul", undefined, "carddb-decklist");
      for (const entry of ofKind) {
        list.append(tile(ctx, entry, data.byKey.get(entry.key), placed.byEntry.get(`${entry.zone}\u001f${entry.key}`)));
      }
      section.append(list);
    }
    view.append(section);
  }
  if (current) {
    const changed = current.changedAt;
    root.dataset.renders = String(Number(root.dataset.renders || 0) + 1);
    if (changed) root.dataset.changeMs = (performance.now() - changed).toFixed(1);
  }
}

async function openDeckText(root, ctx, store, data, text, filename) {
  const engine = ctx.getEngine();
  const note = root.querySelector("[data-builder-note]");
  const read = JSON.parse((await engine.request({ op: "builder-read", game: ctx.game, deck: text, filename })).result);
  if (read.error) { note.textContent = read.error; return; }
  store.replace(undefined, read.entries);
  const cards = read.entries.reduce((a, e) => a + e.count, 0);
  note.textContent = `Opened ${filename || "the deck list"}: ${cards} card${cards === 1 ? "" : "s"}.`
    + (read.skipped.length ? ` Not added (${read.skipped.length}): ${read.skipped.join("; ")}.` : "");
  scheduleCheck(engine, store);
}

async function openFile(root, ctx, store, data, file) {
  const note = root.querySelector("[data-builder-note]");
  if (file.size > 10 * 1024 * 1024) {
    note.textContent = `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; a deck file may be at most 10 MB.`;
    return;
  }
  const engine = ctx.getEngine();
  const bytes = await file.arrayBuffer();
  const decoded = JSON.parse((await engine.request({ op: "decode", bytes, filename: file.name }, [bytes])).result);
  if (decoded.error) { note.textContent = decoded.error; return; }
  await openDeckText(root, ctx, store, data, decoded.text, file.name);
}

// What the panel asks for; a field left empty is sent as null, which the printing engine reads as carddb print's
// own default (carddb.paint.print_options), so an empty bleed is the automatic bleed, never none.
function printOptions(root) {
  const panel = root.querySelector("[data-print]");
  const value = (name) => panel.querySelector(`[name=${name}]`);
  const number = (name) => (value(name).value === "" ? null : Number(value(name).value));
  return { paper: value("paper").value, card: value("card").value || null, layout: value("layout").value,
    bleed: number("bleed"), gutter: number("gutter"), marks: value("marks").checked };
}

async function printDeck(root, ctx, store, data) {
  const status = root.querySelector("[data-print-status]");
  const out = root.querySelector("[data-print-result]");
  const button = root.querySelector("button[data-action=print]");
  const entries = store.entries(data.zones.map((z) => z.id));
  if (!entries.length) { status.textContent = "The deck is empty: nothing to print."; return; }
  button.disabled = true;
  out.replaceChildren();
  const started = performance.now();
  const engine = ctx.getEngine();
  const onProgress = (text) => { status.textContent = text; };
  engine.progress = onProgress;
  status.textContent = engine.state === "ready" ? "Loading the printing engine…" : "Loading the rules engine…";
  try {
    const reply = await engine.request({ op: "print", game: ctx.game, entries, options: printOptions(root),
      name: deckName(ctx.game) });
    const result = JSON.parse(reply.result);
    if (result.error) {
      status.textContent = `Not printed: ${result.error}`;
      root.dataset.printed = "error";
      return;
    }
    const seconds = (performance.now() - started) / 1000;
    root.dataset.printMs = String(Math.round(performance.now() - started));
    root.dataset.printMakeMs = String(Math.round(reply.ms || 0));
    status.textContent = `Printed in ${seconds.toFixed(1)} s.`;
    const pdf = new Uint8Array(reply.pdf);
    const url = URL.createObjectURL(new Blob([pdf], { type: "application/pdf" }));
    const link = ctx.make("a", `Download ${deckName(ctx.game)}.pdf`, "md-button md-button--primary");
    link.href = url;
    link.download = `${deckName(ctx.game)}.pdf`;
    link.dataset.pdfLink = "";
    out.append(link, ctx.make("pre", result.summary, "carddb-print-summary"));
    root.dataset.printed = "done";
  } catch (error) {
    status.textContent = `Not printed: ${error.message}`;
    root.dataset.printed = "error";
  } finally {
    engine.progress = null;
    button.disabled = false;
  }
}

// A shared link never costs the visitor the deck they kept: the link's deck is opened, and the kept one stays one
// click away ("restore"), in this page and after a reload (kept in localStorage beside the deck).
const PREVIOUS = "carddb.previous.";

function cardCount(entries) { return entries.reduce((sum, e) => sum + e.count, 0); }

function savedPrevious(game) {
  try { return JSON.parse(localStorage.getItem(PREVIOUS + game) || "null"); } catch { return null; }
}

function offerRestore(root, ctx, store, note, previous = savedPrevious(ctx.game)) {
  if (!previous || !Array.isArray(previous.entries) || !previous.entries.length) return;
  const n = cardCount(previous.entries);
  const button = ctx.make("button", `Your previous deck (${n} card${n === 1 ? "" : "s"}) – restore`, "md-button");
  button.type = "button";
  button.dataset.restore = "";
  button.addEventListener("click", () => {
    try { localStorage.removeItem(PREVIOUS + ctx.game); } catch { /* refused: the button still restores */ }
    store.replace(previous.format || store.format, previous.entries);
    note.textContent = `Your previous deck is back (${n} card${n === 1 ? "" : "s"}).`;
  });
  note.append(" ", button);
}

function openLink(root, ctx, store, data, formatSelect) {
  const note = root.querySelector("[data-builder-note]");
  const zoneIds = data.zones.map((z) => z.id);
  const shared = parseFragment(location.hash, (stem) => data.byStem.get(stem)?.key, zoneIds,
    data.link_limits || { deck: 20000, copies: 9999 });
  if (!shared) { offerRestore(root, ctx, store, note); return; }
  history.replaceState(null, "", location.pathname + location.search);
  if (shared.error) {
    note.textContent = shared.error + (store.isEmpty() ? "" : " Your deck is as you left it.");
    return;
  }
  const problems = [...shared.problems];
  let format = shared.format;
  if (format && ![...formatSelect.options].some((o) => o.value === format)) {
    problems.push(`Its format "${format}" is not one of this game's: the deck is checked as `
      + `${formatSelect.selectedOptions[0]?.textContent || "the default"}.`);
    format = formatSelect.value;  // the game's default, as the page was built
  }
  const kept = store.entries(zoneIds);
  const same = JSON.stringify(kept) === JSON.stringify(shared.entries);
  if (kept.length && !same) {
    try { localStorage.setItem(PREVIOUS + ctx.game, JSON.stringify({ format: store.format, entries: kept })); }
    catch { /* storage refused: the button below still holds the previous deck for this page */ }
  }
  const previous = { format: store.format, entries: kept };
  store.replace(format || store.format, shared.entries);
  const n = cardCount(shared.entries);
  note.textContent = `Opened the deck of the link (${n} card${n === 1 ? "" : "s"}).`
    + (problems.length ? ` Not as sent: ${problems.join(" ")}` : "");
  note.dataset.linkProblems = String(problems.length);
  if (kept.length && !same) offerRestore(root, ctx, store, note, previous);
}

export function mountBuilder(root, ctx) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "1";
  root.dataset.mountedAt = performance.now().toFixed(0);
  const game = root.dataset.game;
  const local = { ...ctx, game, faceWidth: Number(root.dataset.faceWidth) || 744,
    faceHeight: Number(root.dataset.faceHeight) || 1039 };
  const status = root.querySelector("[data-builder-engine]");
  const note = root.querySelector("[data-builder-note]");
  const engine = ctx.getEngine();
  engine.watch(root, (state) => ctx.showEngine(status, state));
  galleryData(ctx, game).then((data) => {
    const store = deckStore(game);
    const formatSelect = root.querySelector("select[name=deck-format]");
    openLink(root, local, store, data, formatSelect);
    if (store.format && [...formatSelect.options].some((o) => o.value === store.format)) formatSelect.value = store.format;
    else store.format = formatSelect.value;
    let last = lastCheck(game);
    const render = () => renderDeck(root, local, store, data, last);
    onChecked(game, root, (outcome) => { last = outcome; render(); });
    store.watch(root, () => { render(); scheduleCheck(engine, store); });
    engine.watch(root, (state) => { if (state.state === "ready") scheduleCheck(engine, store); });

    mountPlaytest(root.querySelector("[data-playtest]"), local, store, data, engine);
    formatSelect.addEventListener("change", () => store.setFormat(formatSelect.value));
    root.addEventListener("click", async (event) => {
      const button = event.target.closest("button");
      if (!button || !root.contains(button)) return;
      const holder = button.closest("[data-key]");
      if (button.dataset.add && holder) store.add(button.dataset.add, holder.dataset.key);
      else if (button.dataset.remove && holder) store.remove(button.dataset.remove, holder.dataset.key);
      else if (button.dataset.action === "clear") store.clear();
      else if (button.dataset.action === "share") {
        const link = new URL(location.href);
        link.hash = store.toFragment((key) => data.byKey.get(key)?.stem, data.zones.map((z) => z.id)).slice(1);
        root.dataset.shareLink = link.href;
        try { await navigator.clipboard.writeText(link.href); note.textContent = "The link is copied: it holds the whole deck."; } catch {
          note.textContent = "The link holds the whole deck:";
        }
        const shown = ctx.make("a", link.href, "carddb-share");
        shown.href = link.href;
        note.append(" ", shown);
      } else if (button.dataset.action === "print") printDeck(root, local, store, data);
    });
    root.querySelector("select[name=download]").addEventListener("change", async (event) => {
      const fmt = event.target.value;
      event.target.value = "";
      if (!fmt) return;
      const entries = store.entries(data.zones.map((z) => z.id));
      const reply = JSON.parse((await engine.request({ op: "builder-write", game, entries, format: fmt,
        name: deckName(game) })).result);
      if (reply.error) { note.textContent = reply.error; return; }
      download(`${deckName(game)}${reply.suffix}`, reply.text, "text/plain;charset=utf-8");
    });
    const fileInput = root.querySelector("input[name=deck-file]");
    const openChosen = () => {
      const file = fileInput.files[0];
      if (file) openFile(root, local, store, data, file).catch((e) => { note.textContent = `Could not open ${file.name}: ${e.message}`; });
      fileInput.value = "";
    };
    fileInput.addEventListener("change", openChosen);
    root.addEventListener("dragover", (event) => { event.preventDefault(); root.classList.add("carddb-drop"); });
    root.addEventListener("dragleave", () => root.classList.remove("carddb-drop"));
    root.addEventListener("drop", (event) => {
      event.preventDefault();
      root.classList.remove("carddb-drop");
      const file = event.dataTransfer.files[0];
      if (file) openFile(root, local, store, data, file).catch((e) => { note.textContent = `Could not open ${file.name}: ${e.message}`; });
      else {
        const text = event.dataTransfer.getData("text");
        if (text) openDeckText(root, local, store, data, text, "").catch((e) => { note.textContent = e.message; });
      }
    });
    // The paste-in checker below: its deck opens in the builder.
    const checker = document.querySelector(`[data-deck-checker][data-game="${game}"]`);
    const toBuilder = checker && checker.querySelector("button[data-action=to-builder]");
    if (toBuilder) {
      engine.watch(toBuilder, (state) => { toBuilder.disabled = state.state !== "ready"; });
      toBuilder.addEventListener("click", () => {
        const text = checker.querySelector("textarea[name=deck]").value;
        openDeckText(root, local, store, data, text, "").then(() => root.scrollIntoView({ behavior: "smooth" }))
          .catch((e) => { note.textContent = e.message; });
      });
    }
    // The builder answers from here on (its controls are in the page before): a deck file chosen before then had
    // no listener, so it is opened now; data-ready tells a reader's script (or a test) that clicks are heard.
    openChosen();
    root.dataset.ready = "1";
    root.dataset.readyAt = performance.now().toFixed(0);  // for the benchmark: when the builder started to answer
  }).catch((error) => { note.textContent = `The deck builder is unavailable: ${error.message}`; });
}
