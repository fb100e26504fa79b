// The builder's playtest table: the deck shuffled and dealt as its rulebook starts a game, the next card drawn
// on demand, and the exact odds of a card or a kind, in the opening hand and by a turn. Dealing and counting
// are carddb/core/play/playtest.py in the rules engine (the same code as `carddb deck odds`); drawing is a step
// along the dealt deck, here. Every name is written with textContent.

function seed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

function faceItem(ctx, data, key) {
  const card = data.byKey.get(key);
  const item = ctx.make("li", undefined, "carddb-handcard");
  if (card && card.face) {
    const img = document.createElement("img");
    img.src = new URL(card.face, ctx.SITE_ROOT).href;
    img.alt = key;
    img.loading = "lazy";
    item.append(img);
  }
  item.append(ctx.make("span", key, "carddb-name"));
  return item;
}

function percent(chance) {
  return chance.shown;  // worded by the library: "< 0.1 %" for a chance that is small but not nought
}

function oddsTable(ctx, reply, perCount) {
  const table = ctx.make("table", undefined, "carddb-odds");
  const head = ctx.make("tr");
  const opening = `in the opening hand (${reply.opening_hand})`;
  const later = `by turn ${reply.by_turn} (${reply.seen_by_turn} cards)`;
  for (const label of perCount ? ["at least", opening, later] : ["card", "copies", opening, later]) {
    const cell = ctx.make("th", label);
    cell.scope = "col";
    head.append(cell);
  }
  table.append(ctx.make("thead"));
  table.tHead.append(head);
  const body = ctx.make("tbody");
  for (const row of reply.rows) {
    for (let i = 0; i < row.chances.length; i += 2) {
      const line = ctx.make("tr");
      const first = ctx.make("th", perCount ? String(row.chances[i].at_least) : row.target);
      first.scope = "row";
      line.append(first);
      if (!perCount) line.append(ctx.make("td", String(row.copies)));
      line.append(ctx.make("td", percent(row.chances[i])), ctx.make("td", percent(row.chances[i + 1])));
      line.title = `${row.chances[i].chance ?? "never"}, then ${row.chances[i + 1].chance ?? "never"}`;
      body.append(line);
    }
  }
  table.append(body);
  return table;
}

export function mountPlaytest(panel, ctx, store, data, engine) {
  if (!panel) return;
  const game = ctx.game;
  const dealt = panel.querySelector("[data-playtest-dealt]");
  const status = panel.querySelector("[data-playtest-status]");
  const hand = panel.querySelector("[data-playtest-hand]");
  const setup = panel.querySelector("[data-playtest-setup]");
  const drawButton = panel.querySelector("button[data-action=draw]");
  const target = panel.querySelector("select[name=odds-target]");
  const byTurn = panel.querySelector("input[name=by-turn]");
  const second = panel.querySelector("input[name=second]");
  const odds = panel.querySelector("[data-playtest-odds]");
  const entries = () => store.entries(data.zones.map((z) => z.id));
  let opening = null;

  const showHand = () => {
    hand.replaceChildren(...opening.hand.map((key) => faceItem(ctx, data, key)));
    setup.replaceChildren(...opening.setup.map((key) => faceItem(ctx, data, key)));
    setup.hidden = !opening.setup.length;
    status.textContent = `${opening.hand.length} in hand, ${opening.deck.length} left in the deck` +
      (opening.deals > 1 ? `; dealt ${opening.deals} times, as the rulebook says` : "") + ".";
    drawButton.disabled = !opening.deck.length;
  };

  const deal = async () => {
    const started = performance.now();
    const reply = JSON.parse((await engine.request({ op: "playtest-deal", game, entries: entries(), seed: seed() })).result);
    if (reply.error) { status.textContent = reply.error; opening = null; drawButton.disabled = true; return; }
    opening = reply;
    dealt.textContent = `Dealt as the rulebook starts a game: ${reply.dealt}.`;
    showHand();
    panel.dataset.dealMs = (performance.now() - started).toFixed(1);
  };

  const draw = () => {
    if (!opening || !opening.deck.length) return;
    const started = performance.now();
    opening.hand.push(opening.deck.shift());
    showHand();
    panel.dataset.drawMs = (performance.now() - started).toFixed(1);
  };

  const fillTargets = () => {
    const chosen = target.value;
    const options = [["", "each card"], ...Object.entries(data.kinds || {}).map(([id, label]) => [`kind:${id}`, `each ${label}`])];
    const drawn = new Set(data.drawn_zones || []);
    for (const entry of entries()) if (drawn.has(entry.zone)) options.push([`card:${entry.key}`, entry.key]);
    const seen = new Set();
    target.replaceChildren(...options.filter(([value]) => !seen.has(value) && seen.add(value)).map(([value, label]) => {
      const option = ctx.make("option", label);
      option.value = value;
      return option;
    }));
    if ([...target.options].some((o) => o.value === chosen)) target.value = chosen;
  };

  let asked = 0;
  const count = async () => {
    if (!panel.open) return;
    const mine = ++asked;
    const [what, name] = target.value ? [target.value.slice(0, target.value.indexOf(":")), target.value.slice(target.value.indexOf(":") + 1)] : ["", ""];
    const request = { by_turn: byTurn.value, second: second.checked, [what || "all"]: name };
    const reply = JSON.parse((await engine.request({ op: "playtest-odds", game, entries: entries(), request })).result);
    if (mine !== asked) return;  // a newer question is on its way
    if (reply.error) { odds.replaceChildren(ctx.make("p", reply.error)); return; }
    odds.replaceChildren(oddsTable(ctx, reply, Boolean(what)));
  };

  panel.querySelector("button[data-action=deal]").addEventListener("click", () => deal().catch((e) => { status.textContent = e.message; }));
  drawButton.addEventListener("click", draw);
  for (const input of [target, byTurn, second]) input.addEventListener("change", () => count().catch((e) => { odds.textContent = e.message; }));
  panel.addEventListener("toggle", () => { fillTargets(); count().catch((e) => { odds.textContent = e.message; }); });
  store.watch(panel, () => { fillTargets(); opening = null; hand.replaceChildren(); setup.replaceChildren(); status.textContent = ""; drawButton.disabled = true; count().catch(() => {}); });
}
