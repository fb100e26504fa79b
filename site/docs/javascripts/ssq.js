// The Super Smash Quest Skirmish turn calculator: the form becomes the request `carddb ssq turn --json` takes, the
// rules engine (the same worker as the deck checker) answers, and the answer is written as text.

function finished(box) {
  box.dataset.checks = String(Number(box.dataset.checks || 0) + 1);
}

function request(form) {
  const actions = [];
  for (const row of form.querySelectorAll("[data-action-row]")) {
    const name = row.querySelector("select[name=action]").value;
    if (!name) continue;
    if (name.startsWith("action:")) { actions.push({ action: name.slice("action:".length) }); continue; }
    const item = { move: name };
    const successes = row.querySelector("input[name=successes]").value;
    const defence = row.querySelector("input[name=defence_successes]").value;
    if (successes !== "") item.successes = Number(successes);
    if (defence !== "") item.defence_successes = Number(defence);
    actions.push(item);
  }
  const sp = form.elements.sp.value;
  return {
    fighter: form.elements.fighter.value, tick: Number(form.elements.tick.value || 0),
    target: form.elements.target.value || null, defence: form.elements.defence.value,
    same_tick: form.elements.same_tick.checked, sp: sp === "" ? null : Number(sp), actions,
  };
}

function showTurn(box, turn, make) {
  box.replaceChildren();
  box.dataset.verdict = turn.legal ? "legal" : "illegal";
  box.dataset.codes = turn.problems.map((p) => p.code).sort().join(",");
  const rate = turn.max_actions === null ? "" : ` (Rate allows ${turn.max_actions})`;
  box.append(make("p", `${turn.fighter}'s turn on tick ${turn.tick}: ${turn.legal ? "legal" : "not legal"}.`,
    `carddb-verdict carddb-${box.dataset.verdict}`));
  box.append(make("p", `${turn.actions} action${turn.actions === 1 ? "" : "s"}${rate}; next turn on tick `
    + `${turn.next_tick}; SP used ${turn.sp_used}${turn.sp_left === null ? "" : `, ${turn.sp_left} left`}.`,
  "carddb-summary"));
  if (turn.attacks.length) {
    const list = make("ul", undefined, "carddb-attacks");
    for (const attack of turn.attacks) {
      const penalty = attack.penalty ? ` (combo penalty -${attack.penalty})` : "";
      const defence = attack.defence_pool === null ? "" : ` against ${attack.defence_pool} dice`;
      let line = `${attack.move}: ${attack.pool} dice${penalty}${defence}`;
      if (attack.hit !== null) {
        line += `; ${attack.successes} vs ${attack.defence_successes}: `
          + (attack.hit ? `hit, ${attack.working}` : "miss");
      }
      const item = make("li", line, "carddb-attack");
      if (attack.damage !== null) item.dataset.damage = String(attack.damage);
      list.append(item);
    }
    box.append(list);
  }
  if (turn.problems.length) {
    const list = make("ul", undefined, "carddb-problems");
    for (const problem of turn.problems) {
      const item = make("li", undefined, "carddb-problem carddb-sev-error");
      item.dataset.code = problem.code;
      item.append(make("code", problem.code), " ", make("span", problem.message, "carddb-message"));
      list.append(item);
    }
    box.append(list);
  }
  finished(box);
}

function showError(box, message, make) {
  box.replaceChildren(make("p", message, "carddb-verdict carddb-error"));
  box.dataset.verdict = "error";
  box.dataset.codes = "";
  finished(box);
}

export function mount(root, { getEngine, make, showEngine }) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "1";
  const game = root.dataset.game;
  const status = root.querySelector("[data-engine]");
  const turnForm = root.querySelector("form.carddb-ssq-turn");
  const turnBox = root.querySelector("[data-result]");
  const initiativeForm = root.querySelector("form.carddb-ssq-initiative");
  const initiativeBox = root.querySelector("[data-initiative-result]");
  const engine = getEngine(Number(root.dataset.timeoutMs));
  engine.watch(root, (state) => {
    showEngine(status, state);
    for (const button of root.querySelectorAll("button[type=submit]")) button.disabled = state.state !== "ready";
  });

  turnForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const reply = await engine.request({ op: "ssq", game, format: turnForm.elements.format.value,
        request: request(turnForm) });
      const turn = JSON.parse(reply.result);
      if (turn.error) showError(turnBox, turn.error, make);
      else showTurn(turnBox, turn, make);
      turnBox.dataset.checkMs = reply.ms.toFixed(2);
    } catch (error) {
      showError(turnBox, `The calculator failed: ${error.message}`, make);
    }
  });

  initiativeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const rows = [...initiativeForm.querySelectorAll("[data-initiative-row]")];
    const successes = {};
    for (const row of rows) {
      const name = row.querySelector("select[name=fighter]").value;
      const value = row.querySelector("input[name=successes]").value;
      if (name && value !== "") successes[name] = Number(value);
    }
    try {
      const answer = JSON.parse((await engine.request({ op: "initiative", game, successes })).result);
      if (answer.error) { showError(initiativeBox, answer.error, make); return; }
      for (const row of rows) {
        const name = row.querySelector("select[name=fighter]").value;
        row.querySelector("[data-tick]").textContent = name in answer.ticks ? `tick ${answer.ticks[name]}` : "";
      }
      initiativeBox.replaceChildren(make("p", Object.entries(answer.ticks)
        .map(([name, tick]) => `${name} on tick ${tick}`).join(", ") + "."));
      finished(initiativeBox);
    } catch (error) {
      showError(initiativeBox, `The calculator failed: ${error.message}`, make);
    }
  });
}
