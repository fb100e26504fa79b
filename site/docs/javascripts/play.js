// The play helpers: each form on a game's Play page (ssq's turn calculator too) becomes the request of its
// helper, the rules engine (the same worker as the deck checker) answers as `carddb play <game> <helper> --json`
// does, and the answer is written as text (textContent only), each step with a link to its rulebook section.
//
// A field's name is the request key it fills: `a.b` a key of an object, `x[]` an entry of a list (a ticked checkbox
// adds its value), and the fields inside a [data-row] make one object of the list the row names, kept when its
// data-key field is filled. A select named `format` picks the game's format and is not part of the request.

function finished(box) {
  box.dataset.checks = String(Number(box.dataset.checks || 0) + 1);
}

function fieldValue(input) {
  if (input.type === "checkbox") {
    // A checkbox with a value adds it to a list when ticked; one without is true or false.
    if (input.getAttribute("value") !== null) return input.checked ? input.value : "";
    return input.checked;
  }
  if (input.type === "number") return input.value === "" ? null : Number(input.value);
  return input.value.trim();
}

function put(target, path, value) {
  const keys = path.split(".");
  let here = target;
  for (const key of keys.slice(0, -1)) here = here[key] ??= {};
  const last = keys[keys.length - 1];
  if (last.endsWith("[]")) {
    const list = here[last.slice(0, -2)] ??= [];
    if (value !== "" && value !== null && value !== false) list.push(value);
  } else {
    here[last] = value;
  }
}

const empty = (value) => value === "" || value === null || value === undefined;

// The request a form (or one of its rows) stands for: its own fields, then one object per row it holds directly.
function collect(container) {
  const level = container.matches("[data-row]") ? container : null;
  const out = {};
  for (const input of container.querySelectorAll("input, select")) {
    if (input.closest("[data-row]") !== level || !input.name || input.name === "format") continue;
    put(out, input.name, fieldValue(input));
  }
  for (const row of container.querySelectorAll("[data-row]")) {
    if (row.parentElement.closest("[data-row]") !== level) continue;
    const item = collect(row);
    if (row.dataset.key && empty(item[row.dataset.key])) continue;
    (out[row.dataset.row] ??= []).push(item);
  }
  return out;
}

export function request(form) {
  return collect(form);
}

function showAnswer(box, answer, { make, ruleLink }) {
  box.replaceChildren();
  box.dataset.verdict = answer.legal ? "legal" : "illegal";
  box.append(make("p", answer.answer, `carddb-verdict carddb-play-answer carddb-${box.dataset.verdict}`));
  const working = make("ol", undefined, "carddb-working");
  for (const step of answer.working) {
    const item = make("li");
    item.append(make("span", step.text, "carddb-step"));
    const link = ruleLink(step.rule);
    if (link) item.append(" ", link);
    working.append(item);
  }
  box.append(working);
  if (answer.problems.length) {
    const list = make("ul", undefined, "carddb-problems");
    for (const problem of answer.problems) {
      const item = make("li", undefined, "carddb-problem carddb-sev-error");
      item.append(make("span", problem.message, "carddb-message"));
      const link = ruleLink(problem.rule);
      if (link) item.append(" ", link);
      list.append(item);
    }
    box.append(list);
  }
  finished(box);
}

function showError(box, message, make) {
  box.replaceChildren(make("p", message, "carddb-verdict carddb-error"));
  box.dataset.verdict = "error";
  finished(box);
}

export function mount(root, helpers) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "1";
  const { getEngine, make, showEngine } = helpers;
  const game = root.dataset.game;
  const status = root.querySelector("[data-engine]");
  const forms = [...document.querySelectorAll(`form[data-play-form][data-game="${game}"]`)];
  const engine = getEngine(Number(root.dataset.timeoutMs));
  engine.watch(root, (state) => {
    if (status) showEngine(status, state);
    for (const form of forms) form.querySelector("button[type=submit]").disabled = state.state !== "ready";
  });
  for (const form of forms) {
    const helper = form.dataset.helper;
    const box = form.parentElement.querySelector(`[data-play-result="${helper}"]`)
      || document.querySelector(`[data-play-result="${helper}"]`);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const reply = await engine.request({ op: "play", game, helper, request: request(form),
          format: form.elements.format ? form.elements.format.value : null });
        const answer = JSON.parse(reply.result);
        if (answer.error) showError(box, answer.error, make);
        else showAnswer(box, answer, helpers);
      } catch (error) {
        showError(box, `The helper failed: ${error.message}`, make);
      }
    });
  }
}
