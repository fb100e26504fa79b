// The Super Smash Quest Skirmish turn calculator: the form becomes the request `carddb play ssq turn --json` takes, the
// rules engine (the same worker as the deck checker) answers, and the answer is written as text (textContent only).
// The clash, charge, Smash Points and recovery forms work the same way with `carddb play ssq <calc> --json`.

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
      const defence = attack.defence_pool === null ? "" : ` against ${dice(attack.defence_pool)}`;
      let line = `${attack.move}: ${dice(attack.pool)}${penalty}${defence}`;
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

function dice(n) { return `${n} ${n === 1 ? "die" : "dice"}`; }

// Each move list offers the moves of the fighter chosen beside it (and the plain actions and moves of no one):
// the fighter select of a move select is the one of the same prefix (first_, second_) in its form.
function moveLists(form) {
  for (const select of form.querySelectorAll("select")) {
    if (!select.querySelector("optgroup")) continue;
    const prefix = (/^(first_|second_)/.exec(select.name) || [""])[0];
    const fighter = form.elements[`${prefix}fighter`] || form.closest("[data-ssq-calculator]")
      .querySelector("form.carddb-ssq-turn select[name=fighter]");
    if (!fighter || fighter === select) continue;
    const offer = () => {
      for (const group of select.querySelectorAll("optgroup")) {
        const theirs = ["Actions", "Any fighter", fighter.value].includes(group.label);
        group.hidden = !theirs;
        group.disabled = !theirs;
      }
      if (select.selectedOptions[0]?.parentElement?.disabled) select.value = "";
    };
    fighter.addEventListener("change", offer);
    offer();
  }
}

function showError(box, message, make) {
  box.replaceChildren(make("p", message, "carddb-verdict carddb-error"));
  box.dataset.verdict = "error";
  box.dataset.codes = "";
  finished(box);
}

// Between and around turns: each form of `carddb play ssq clash | charge | sp | recovery` becomes the request its entry
// point in carddb/games/ssq/browser.py takes; an empty number field is left out (null), as an option not given.
function number(form, name) {
  const value = form.elements[name].value;
  return value === "" ? null : Number(value);
}

const FIGHT_REQUESTS = {
  clash: (form) => Object.fromEntries(["first", "second"].map((side) => [side, {
    fighter: form.elements[`${side}_fighter`].value, move: form.elements[`${side}_move`].value,
    successes: number(form, `${side}_successes`), extra_power: number(form, `${side}_extra_power`),
  }])),
  charge: (form) => ({
    fighter: form.elements.fighter.value, move: form.elements.move.value, tick: number(form, "tick"),
    ticks: number(form, "ticks"), event: form.elements.event.value, at: number(form, "at"),
    used: [...form.querySelectorAll("select[name=used]")].map((select) => select.value).filter(Boolean),
  }),
  sp: (form) => ({ fighter: form.elements.fighter.value, sp: number(form, "sp"), from: number(form, "from"),
    to: number(form, "to") }),
  recovery: (form) => ({
    fighter: form.elements.fighter.value, damage: number(form, "damage"), hit: number(form, "hit"),
    attack_successes: number(form, "attack_successes"), defence_successes: number(form, "defence_successes"),
    ledge: number(form, "ledge"), roll: number(form, "roll"), up_b: form.elements.up_b.value || null,
    up_b_roll: number(form, "up_b_roll"), walls: number(form, "walls"), sheltered: form.elements.sheltered.checked,
    pit: !form.elements.no_pit.checked,
  }),
};

// The answer in one sentence, above the working the engine wrote out step by step.
const FIGHT_SUMMARIES = {
  clash: (a) => (a.winner === null ? "Tie: no damage." : `${a.winner} hits: ${a.damage} damage.`),
  charge: (a) => (a.next_tick !== null ? `Next turn on tick ${a.next_tick}.`
    : a.resume_tick !== null ? `The turn resumes on tick ${a.resume_tick}.` : "No next tick: see the problems."),
  sp: (a) => `${a.sp} SP of ${a.maximum}.`,
  recovery: (a) => `Outcome: ${a.outcome}.`,
};

function showFight(box, calc, answer, make) {
  box.replaceChildren();
  box.dataset.verdict = answer.legal ? "legal" : "illegal";
  box.append(make("p", FIGHT_SUMMARIES[calc](answer), "carddb-fight-summary"));
  const working = make("ol", undefined, "carddb-working");
  for (const line of answer.working) working.append(make("li", line));
  box.append(working);
  if (answer.problems.length) {
    const list = make("ul", undefined, "carddb-problems");
    for (const problem of answer.problems) {
      list.append(make("li", problem, "carddb-problem carddb-sev-error"));
    }
    box.append(list);
  }
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

  for (const form of root.querySelectorAll("form.carddb-ssq-turn, form.carddb-ssq-fight")) moveLists(form);

  for (const form of root.querySelectorAll("form.carddb-ssq-fight")) {
    const calc = form.dataset.calc;
    const box = root.querySelector(`[data-fight-result="${calc}"]`);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const reply = await engine.request({ op: "ssq-fight", calc, game, request: FIGHT_REQUESTS[calc](form),
          format: form.elements.format ? form.elements.format.value : null });
        const answer = JSON.parse(reply.result);
        if (answer.error) showError(box, answer.error, make);
        else showFight(box, calc, answer, make);
      } catch (error) {
        showError(box, `The calculator failed: ${error.message}`, make);
      }
    });
  }

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
