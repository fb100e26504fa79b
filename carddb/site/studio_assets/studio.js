// carddb site serve: the card studio. Added by the server to the pages it sends (never in a built site): an
// Edit form on each card page, the face redrawn as you type, problems beside their fields, Save / Duplicate /
// Delete / Undo / New card, and the designer's gallery. Every request carries the token of this server start, in a
// cookie no script can read (the server sets it with the page), and the header only this script sets.
(() => {
  if (window.carddbStudio) return;  // once, whatever instant navigation does
  const PREFIX = "/__carddb__/studio/";
  const DEBOUNCE_MS = 150;
  const REOPEN = "carddb-studio-reopen";
  const BAR_SAID = "carddb-studio-bar-said";
  const BAR_SAID_MS = 120_000;  // long enough for a rebuild; a message older than that is about another build
  const NOTICE = "carddb-studio-notice";  // what a deletion says, with its Undo, on the page it lands on
  const HELD = "The site was rebuilt; this page reloads once your edits are saved or closed.";
  let uid = 0;
  // The editor open on this page, if any. While it holds work not yet saved (or a new card's form), a rebuild
  // of the site does not reload the page under it: the reload waits until the editor is saved or closed.
  let active = null;
  let reloadHeld = false;
  window.addEventListener("carddb:rebuilt", (event) => {
    if (active?.holdsPage()) { event.preventDefault(); reloadHeld = true; active.heldNotice(); }
    else if (active?.isOpen()) active.keepOpen();  // an editor with nothing unsaved opens again after the reload
  });
  const release = () => {
    if (!reloadHeld || active?.holdsPage()) return;
    if (active?.isOpen()) active.keepOpen();
    location.reload();
  };

  const call = async (action, body) => {
    const answer = await fetch(PREFIX + action, {
      method: "POST", cache: "no-store", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-Carddb-Studio": "1"}, credentials: "same-origin",
    });
    const data = await answer.json().catch(() => ({error: `the server answered ${answer.status}`}));
    if (!answer.ok) {
      const error = new Error(data.error || `the server answered ${answer.status}`);
      error.conflict = Boolean(data.conflict);
      error.problems = data.problems;  // a form's values that make no card: the problem of each field
      throw error;
    }
    return data;
  };

  // the server's words start lower case, to be part of a sentence: shown alone, they start one
  const sentence = (text) => (text ? `${text[0].toUpperCase()}${text.slice(1)}` : text);
  const untilRebuilt = (said) => `${sentence(said)}. The page shows it once the site is rebuilt.`;

  const make = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  };

  // -- the form --------------------------------------------------------------------------------------------
  const hintOf = (field) => {
    const parts = [];
    if (field.type === "int") {
      if (field.min !== null && field.max !== null) parts.push(`a whole number from ${field.min} to ${field.max}`);
      else if (field.min !== null) parts.push(`a whole number, at least ${field.min}`);
      else if (field.max !== null) parts.push(`a whole number, at most ${field.max}`);
      else parts.push("a whole number");
      if (field.also.length) parts.push(`or ${field.also.join(" / ")}`);
    }
    if (field.type === "list") {
      parts.push(field.choices.length ? `any of ${field.choices.map((c) => c[0]).join(", ")}, separated by ;`
        : "words separated by ;");
    }
    if (field.type === "map") parts.push("Name=number pairs, separated by ;");
    if (field.help) parts.push(field.help);
    return parts.join(" ");
  };

  const inputFor = (field, value, id) => {
    const described = `${id}-hint ${id}-problem`;
    if (field.type === "text") {
      return make("textarea", {id, name: field.key, rows: 3, "aria-describedby": described,
        required: field.required}, value ?? "");
    }
    if (field.type === "bool") {
      const box = make("input", {id, name: field.key, type: "checkbox", "aria-describedby": described});
      box.checked = Boolean(value);
      return box;
    }
    if (field.type === "choice") {
      const select = make("select", {id, name: field.key, "aria-describedby": described, required: field.required});
      if (!field.required) select.append(make("option", {value: "", text: "(none)"}));
      for (const [code, label] of field.choices) {
        select.append(make("option", {value: code, text: label === code ? code : `${label} (${code})`}));
      }
      select.value = value ?? "";
      return select;
    }
    return make("input", {id, name: field.key, type: "text", value: value ?? "", required: field.required,
      inputmode: field.type === "int" && !field.also.length ? "numeric" : null, "aria-describedby": described,
      autocomplete: "off", spellcheck: field.type === "str" ? null : "false"});
  };

  const fieldRow = (field, value) => {
    const id = `carddb-studio-${field.key.replace(/\W/g, "-")}-${++uid}`;
    const label = make("label", {for: id}, field.label,
      field.required ? make("span", {class: "carddb-studio-required", text: " (required)"}) : null);
    return make("div", {class: `carddb-studio-field carddb-studio-${field.type}`, "data-field": field.key},
      label, inputFor(field, value, id), make("p", {class: "carddb-studio-hint", id: `${id}-hint`, text: hintOf(field)}),
      make("p", {class: "carddb-studio-problem", id: `${id}-problem`, "aria-live": "polite"}));
  };

  // A card's printings: the first is the form's Set, Collector number, Rarity and Art file; each other one is a
  // group of the same inputs named printings.N.key (N counting from 1), sent as the list more_printings.
  const PRINTING_KEYS = ["set", "number", "rarity", "art"];
  const OTHER_PRINTING = /^printings\.(\d+)\.(\w+)$/;

  const valuesOf = (form) => {
    const values = {more_printings: []};
    for (const element of form.querySelectorAll("[data-field] input, [data-field] textarea, [data-field] select")) {
      const value = element.type === "checkbox" ? element.checked : element.value;
      const other = OTHER_PRINTING.exec(element.name);
      if (other) (values.more_printings[Number(other[1]) - 2] ??= {})[other[2]] = value;
      else values[element.name] = value;
    }
    return values;
  };

  const otherPrintings = (fields, printings) => {
    const section = make("fieldset", {class: "carddb-studio-printings"},
      make("legend", {text: "Other printings"}));
    const own = fields.filter((field) => PRINTING_KEYS.includes(field.key));
    printings.forEach((printing, at) => {
      const number = at + 2;
      const group = make("fieldset", {class: "carddb-studio-printing"}, make("legend", {text: `Printing ${number}`}));
      for (const field of own) {
        group.append(fieldRow({...field, key: `printings.${number}.${field.key}`}, printing[field.key]));
      }
      group.append(make("button", {type: "button", class: "md-button", "data-printing": "remove",
        "data-number": number, text: `Remove printing ${number}`}));
      section.append(group);
    });
    section.append(make("button", {type: "button", class: "md-button", "data-printing": "add",
      text: "Add a printing"}));
    return section;
  };

  // -- the editor on a card page ---------------------------------------------------------------------------
  class Editor {
    constructor(host, game, key, mode) {
      this.host = host; this.game = game; this.key = key; this.mode = mode;  // mode: "edit" or "new"
      this.sequence = 0; this.timer = null;
      this.saved = null;  // the form's values as last opened or saved: other values are unsaved work
      // a new card's form says nothing of a field before the designer has typed in it or pressed Add card
      this.touched = new Set(); this.tried = mode === "edit";
    }

    holdsPage() {
      if (this.closed) return false;
      if (this.mode === "new") return true;  // its form goes with the page; done() leaves the page itself
      return this.unsaved();
    }

    unsaved() { return !this.closed && Boolean(this.form) && this.saved !== JSON.stringify(valuesOf(this.form)); }

    // still loading (no form yet) counts: a rebuild between the click and the form must not lose the editor
    isOpen() { return !this.closed && this.mode === "edit"; }

    keepOpen() {
      const text = this.status?.textContent ?? "";
      const said = text === HELD ? "" : text;
      sessionStorage.setItem(REOPEN, JSON.stringify({key: this.key, said}));
    }

    heldNotice() { if (this.status && !this.status.dataset.problem) this.say(HELD); }

    async open() {
      this.opened = await call("open", {game: this.game, key: this.key});
      this.digest = this.opened.digest;
      const values = this.mode === "new" ? {kind: this.opened.kind, set: this.opened.values.set}
        : this.opened.values;
      this.render(this.opened.kind, values);
      this.saved = JSON.stringify(valuesOf(this.form));
      this.preview();
    }

    render(kind, values) {
      this.kind = kind;
      this.host.replaceChildren();
      const title = this.mode === "new" ? `New ${this.game} card` : `Edit ${this.key}`;
      this.status = make("p", {class: "carddb-studio-status", role: "status", "aria-live": "polite"});
      this.form = make("form", {class: "carddb-studio-form", novalidate: true, "aria-label": title});
      const icons = this.opened.icons.map((name) => `{${name}}`).join(" ");
      for (const field of this.opened.kinds[kind]) {
        const shown = field.key === "text" && icons ? {...field, help: `Icons: ${icons}`} : field;
        this.form.append(fieldRow(shown, values[field.key]));
      }
      this.form.append(otherPrintings(this.opened.kinds[kind], values.more_printings ?? []));
      if (this.mode === "new") {
        const files = {key: "__file", label: "Card file", type: "choice", required: true, also: [], help: "",
          choices: this.opened.files.map((file) => [file, file]), min: null, max: null};
        const row = fieldRow(files, this.opened.file || this.opened.files[0]);
        row.removeAttribute("data-field");
        row.querySelector("select").name = "__file";
        this.fileSelect = row.querySelector("select");
        this.form.append(row);
      }
      const refusalId = `carddb-studio-refusal-${++uid}`;
      // why a save was refused: beside the button, read out at once, and what the button is described by
      this.refusal = make("p", {class: "carddb-studio-refusal", id: refusalId, role: "alert"});
      const submit = make("button", {type: "submit", class: "md-button md-button--primary", text: this.mode === "new"
        ? "Add card" : "Save", "aria-describedby": refusalId});
      const buttons = make("div", {class: "carddb-studio-buttons"}, submit,
        this.mode === "edit" && this.opened.file ? make("button", {type: "button", class: "md-button",
          "data-action": "duplicate", text: "Duplicate"}) : null,
        this.mode === "edit" && this.opened.file ? make("button", {type: "button", class: "md-button",
          "data-action": "delete", text: "Delete…"}) : null,
        make("button", {type: "button", class: "md-button", "data-action": "close", text: "Close"}));
      this.form.append(buttons, this.refusal);
      // no image before a face is drawn (never a broken one): a blank card of the face's shape says why
      this.face = make("img", {class: "carddb-studio-face", hidden: true, alt: this.mode === "new"
        ? "The new card's face" : `${this.key}: the face as edited`});
      const shown = document.querySelector(".carddb-cardpage-face img");
      this.blank = make("div", {class: "carddb-studio-blank", style: shown?.naturalWidth
        ? `aspect-ratio: ${shown.naturalWidth} / ${shown.naturalHeight}` : null},
      make("p", {text: "The face is drawn here as soon as the card has a name and its required values."}));
      this.layout = make("ul", {class: "carddb-studio-layout", "aria-label": "What the layout says of the face"});
      const preview = make("div", {class: "carddb-studio-preview"}, this.face, this.blank, this.layout);
      this.host.append(make("h2", {text: title, tabindex: "-1"}), this.status,
        make("div", {class: "carddb-studio-grid"}, preview, this.form));  // the face first: above the form on a phone
      this.form.addEventListener("input", (event) => {
        if (event.target.name) this.touched.add(event.target.name);
        if (event.target.name === "kind") {
          this.render(event.target.value, valuesOf(this.form));
          this.host.querySelector('[name="kind"]').focus();
        }
        clearTimeout(this.timer);
        this.host.dataset.preview = "waiting";
        this.timer = setTimeout(() => { this.timer = null; this.preview(); }, DEBOUNCE_MS);
      });
      this.form.addEventListener("submit", (event) => { event.preventDefault(); this.save(); });
      this.form.addEventListener("click", (event) => {
        const button = event.target.closest("[data-printing]");
        if (button) this.changePrintings(button.dataset.printing, Number(button.dataset.number));
      });
      buttons.addEventListener("click", (event) => {
        const action = event.target.closest("[data-action]")?.dataset.action;
        if (action === "duplicate") this.duplicate();
        if (action === "delete") this.remove();
        if (action === "close") {
          this.closed = true; this.host.hidden = true; this.host.replaceChildren();
          release();
        }
      });
      this.host.hidden = false;
    }

    // a printing added (in the first one's set) or removed: the form is drawn again with the values typed so far
    changePrintings(action, number) {
      const values = valuesOf(this.form);
      if (action === "add") values.more_printings.push({set: values.set ?? "", number: "", rarity: "", art: ""});
      else values.more_printings.splice(number - 2, 1);
      this.render(this.kind, values);
      this.say(action === "add" ? `Printing ${values.more_printings.length + 1} added; save to keep it.`
        : `Printing ${number} removed; save to keep the change.`);
      const groups = this.form.querySelectorAll(".carddb-studio-printing");
      const target = action === "add" ? groups[groups.length - 1]?.querySelector("select, input")
        : this.form.querySelector('[data-printing="add"]');
      target?.focus();
      this.preview();
    }

    // data-preview on the editor: "waiting" from a keystroke until the face and problems shown are those of the
    // values in the form ("done"), so a reader's script (or a test) can wait for the answer to what was typed
    async preview() {
      const mine = ++this.sequence;
      this.host.dataset.preview = "waiting";
      const answered = () => { if (mine === this.sequence && this.timer === null) this.host.dataset.preview = "done"; };
      try {
        const answer = await call("preview", {game: this.game, key: this.mode === "edit" ? this.key : null,
          values: valuesOf(this.form)});
        if (mine !== this.sequence) return;  // a later keystroke's answer is on its way
        this.showProblems(answer.problems);
        if (answer.face) {
          this.face.src = answer.face;
          this.face.dataset.drawn = String(mine);
          this.face.hidden = false;
          this.blank.hidden = true;
        }
        this.layout.replaceChildren(...answer.layout.map((said) => make("li", {text: said.message})));
      } catch (error) {
        if (mine === this.sequence) this.say(error.message, true);
      }
      answered();
    }

    // each problem under its field (for a new card, only once its field was typed in or Add card pressed); the
    // fields with a problem, in the form's order
    showProblems(problems) {
      const bad = [];
      for (const row of this.form.querySelectorAll("[data-field]")) {
        const input = row.querySelector("input, textarea, select");
        const said = this.tried || this.touched.has(input.name) ? problems[row.dataset.field] || "" : "";
        row.querySelector(".carddb-studio-problem").textContent = said;
        input.setAttribute("aria-invalid", said ? "true" : "false");
        if (said) bad.push({input, row, label: row.querySelector("label").firstChild.textContent});
      }
      const general = this.tried || this.touched.size ? problems[""] || "" : "";
      if (general) this.say(general, true);
      else if (this.status.dataset.problem) this.say("");
      if (!bad.length && this.refusal.dataset.fields) this.refuse("");  // the values it named are right now
      return bad;
    }

    // why a save was refused, beside Save (empty: nothing refused); ``fields``: for values now marked at their
    // fields, so it goes once they are right
    refuse(text, fields = false) {
      this.refusal.textContent = text;
      this.refusal.dataset.fields = fields ? "1" : "";
    }

    say(text, problem = false) {
      this.status.textContent = text;
      this.status.dataset.problem = problem ? "1" : "";
      this.status.classList.toggle("carddb-studio-error", problem);
    }

    async save() {
      const values = valuesOf(this.form);
      this.tried = true;
      try {
        const saved = this.mode === "new"
          ? await call("new", {game: this.game, file: this.fileSelect.value, values})
          : await call("save", {game: this.game, key: this.key, digest: this.digest, values});
        this.done(saved);
      } catch (error) {
        // a value that does not fit: said at its field, which gets the focus; anything else (a conflict says to
        // reload: the file changed on disk) beside Save, which keeps it
        const bad = error.problems ? this.showProblems(error.problems) : [];
        if (bad.length) {
          const named = bad.map((field) => field.label).join(", ");
          this.refuse(`Not saved: see the problem${bad.length > 1 ? "s" : ""} under ${named}.`, true);
          bad[0].input.focus({preventScroll: true});
          bad[0].row.scrollIntoView({block: "center"});  // with its problem, clear of the face above it on a phone
        } else {
          this.refuse(`Not saved: ${error.message}`.replace(/([^.!?])$/, "$1."));
        }
      }
    }

    async duplicate() {
      try {
        this.done(await call("duplicate", {game: this.game, key: this.key, digest: this.digest}));
      } catch (error) { this.refuse(`Not copied: ${error.message}`.replace(/([^.!?])$/, "$1.")); }
    }

    async remove() {
      if (!window.confirm(`Delete ${this.key} from ${this.opened.file}? (Undo puts it back.)`)) return;
      try {
        const deleted = await call("delete", {game: this.game, key: this.key, digest: this.digest});
        // the page it lands on says what was deleted, with an Undo right there (``mountNotice``)
        keepNotice({page: `/games/${this.game}/cards/`, said: `${sentence(deleted.said)}.`, undo: true,
          card: {key: this.key, page: location.pathname}});
        this.done(deleted);
      } catch (error) { this.refuse(`Not deleted: ${error.message}`.replace(/([^.!?])$/, "$1.")); }
    }

    done(saved) {
      this.digest = saved.digest;
      this.saved = JSON.stringify(valuesOf(this.form));
      this.say(untilRebuilt(saved.said));
      sessionStorage.setItem(REOPEN, JSON.stringify({key: saved.key, said: this.status.textContent}));
      const here = location.pathname;
      const target = saved.page ? `/${saved.page}` : `/games/${this.game}/cards/`;
      if (target !== here) location.assign(target);  // the page waits for the rebuild (it reloads when it comes)
      else release();  // a rebuild held while the form was unsaved: its page is out of date
    }
  }

  // -- what a deletion says on the page it lands on, with its Undo ----------------------------------------
  // Kept in the tab's session storage: the page reloads itself when the site is rebuilt, and says it again.
  const keepNotice = (notice) => sessionStorage.setItem(NOTICE, JSON.stringify({...notice, at: Date.now()}));

  const mountNotice = () => {
    const notice = JSON.parse(sessionStorage.getItem(NOTICE) || "null");
    if (!notice || notice.page !== location.pathname || Date.now() - notice.at > BAR_SAID_MS) return;
    const place = document.querySelector("article") || document.querySelector("main") || document.body;
    if (place.querySelector(".carddb-studio-notice")) return;
    const text = make("span", {text: notice.said});
    const box = make("div", {class: "carddb-studio-notice", role: "status", tabindex: "-1",
      "aria-label": "Card studio", "data-search-exclude": true}, text);
    const link = () => make("a", {href: notice.card.page, text: `Open ${notice.card.key}`});
    if (notice.undo) {
      const undo = make("button", {type: "button", class: "md-button md-button--primary", text: "Undo"});
      undo.addEventListener("click", async () => {
        try {
          const undone = await call("undo", {});
          const said = untilRebuilt(undone.said);
          keepNotice({...notice, said, undo: false});
          text.textContent = said;
          undo.replaceWith(link());
        } catch (error) { text.textContent = sentence(error.message).replace(/([^.!?])$/, "$1."); }
      });
      box.append(" ", undo);
    } else if (notice.card) box.append(" ", link());
    place.prepend(box);
    box.focus();
  };

  // -- the bar on every card page --------------------------------------------------------------------------
  const bar = (game, key, host) => {
    const status = make("span", {class: "carddb-studio-barstatus", role: "status", "aria-live": "polite"});
    const edit = key ? make("button", {type: "button", class: "md-button md-button--primary", text: "Edit card",
      "aria-expanded": "false"}) : null;
    const add = make("button", {type: "button", class: "md-button", text: "New card"});
    const undo = make("button", {type: "button", class: "md-button", text: "Undo last edit"});
    const gallery = make("a", {class: "md-button", href: `${PREFIX}gallery?game=${encodeURIComponent(game)}`,
      text: "Studio gallery"});
    const open = async (mode) => {
      if (active?.unsaved() && !window.confirm(`Leave the edits not saved in "${active.host.querySelector("h2")
        ?.textContent}"?`)) return null;
      try {
        if (active) active.closed = true;  // its form is replaced by this one
        // at once: typing into the old form while the new one loads would be lost when it comes
        host.replaceChildren(make("p", {role: "status", text: "Opening the form…"}));
        const editor = new Editor(host, game, key || null, mode);
        active = editor;  // from the click: a rebuild while the form loads must not take it away
        await editor.open();
        edit?.setAttribute("aria-expanded", "true");
        host.querySelector("h2").focus();
        return editor;
      } catch (error) {
        status.textContent = error.message;
        host.replaceChildren();
        host.hidden = true;
        if (active) active.closed = true;
        release();
        return null;
      }
    };
    edit?.addEventListener("click", () => open("edit"));
    add.addEventListener("click", () => open("new"));
    undo.addEventListener("click", async () => {
      try {
        const undone = await call("undo", {});
        status.textContent = untilRebuilt(undone.said);
        // the rebuild that follows reloads this page: the bar says it again after the reload
        sessionStorage.setItem(BAR_SAID, JSON.stringify({page: location.pathname, said: status.textContent,
          at: Date.now()}));
      } catch (error) { status.textContent = sentence(error.message).replace(/([^.!?])$/, "$1."); }
    });
    return {element: make("div", {class: "carddb-studio-bar", "data-search-exclude": true,
      "aria-label": "Card studio", role: "group"}, make("strong", {text: "Studio: "}), edit, add, undo, gallery,
      status), status, open};
  };

  const mountCardPage = () => {
    const page = document.querySelector("[data-card-page]");
    if (!page || page.dataset.studio) return;
    page.dataset.studio = "1";
    const host = make("section", {class: "carddb-studio", "aria-label": "Card editor", hidden: true});
    const {element, status, open} = bar(page.dataset.game, page.dataset.key, host);
    page.before(element, host);
    const said = JSON.parse(sessionStorage.getItem(BAR_SAID) || "null");
    if (said) {
      sessionStorage.removeItem(BAR_SAID);
      if (said.page === location.pathname && Date.now() - said.at < BAR_SAID_MS) {
        status.textContent = said.said;
      }
    }
    const reopen = JSON.parse(sessionStorage.getItem(REOPEN) || "null");
    if (reopen && reopen.key === page.dataset.key) {
      sessionStorage.removeItem(REOPEN);
      open("edit").then((editor) => editor?.say(reopen.said));
    } else if (location.hash === "#studio-edit" || location.hash === "#studio-new") {
      open(location.hash === "#studio-new" ? "new" : "edit");
    }
  };

  // -- the designer's gallery ------------------------------------------------------------------------------
  const mountGallery = async () => {
    const main = document.querySelector("[data-studio-gallery]");
    if (!main || main.dataset.studio) return;
    main.dataset.studio = "1";
    const status = make("p", {role: "status", "aria-live": "polite"});
    main.append(status);
    let data;
    try { data = await call("gallery", {game: main.dataset.game}); } catch (error) {
      status.textContent = error.message; return;
    }
    const counts = {};
    for (const card of data.cards) for (const rule of new Set(card.problems.map((p) => p.rule))) {
      counts[rule] = (counts[rule] || 0) + 1;
    }
    const filter = make("select", {id: "carddb-studio-filter"},
      make("option", {value: "", text: `every card (${data.cards.length})`}),
      make("option", {value: "*", text: `any problem (${data.cards.filter((c) => c.problems.length).length})`}),
      ...Object.entries(data.rules).map(([rule, label]) => make("option", {value: rule,
        text: `${label} (${counts[rule] || 0})`})));
    const grid = make("ul", {class: "carddb-studio-faces"});
    const show = () => {
      const wanted = filter.value;
      const cards = data.cards.filter((card) => !wanted || (wanted === "*" ? card.problems.length
        : card.problems.some((p) => p.rule === wanted)));
      grid.replaceChildren(...cards.map((card) => make("li", {},
        make("a", {href: `${card.page}#studio-edit`},
          make("img", {src: card.face, alt: `${card.key}: edit this card`, loading: "lazy", width: 250}),
          make("span", {text: card.key})),
        card.problems.length ? make("ul", {class: "carddb-studio-problems"},
          ...card.problems.map((p) => make("li", {text: p.message}))) : null)));
      status.textContent = `${cards.length} of ${data.cards.length} cards shown.`;
    };
    filter.addEventListener("change", show);
    main.querySelector("h1").textContent = `Studio gallery: ${data.name}`;
    main.append(make("p", {}, make("a", {href: `/games/${data.game}/cards/`, text: `All ${data.name} cards`}),
      data.cards.length ? " · " : null, data.cards.length ? make("a", {href: `${data.cards[0].page}#studio-new`,
        text: "New card"}) : null),
      make("p", {}, make("label", {for: "carddb-studio-filter", text: "Show: "}), filter), grid);
    show();
  };

  window.carddbStudio = {call};
  const mount = () => { mountNotice(); mountCardPage(); mountGallery(); };
  if (window.document$?.subscribe) window.document$.subscribe(mount);  // Material's instant navigation
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
  else mount();
})();
