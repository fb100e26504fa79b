// The gallery's search answered at once, while the rules engine loads: the search language of
// carddb/core/search/query.py (CardSearch), read over the index the build wrote (search_index: every value a
// term reads, normalised there). Anything this reading is not sure of (a query it cannot parse, an unknown
// field, a number out of range, a letter outside ASCII, whose case folding JavaScript does differently) gives
// null: the engine answers it, with its own message. The engine's answer replaces this one when it is ready,
// and tests/site/test_quicksearch.py holds the two to the same cards.

const TOKEN = /\s*(?:(\()|(\))|(-)(?=[^\s)])|("(?:[^"\\]|\\.)*"?)|((?:[^\s()"]|"[^"]*")+))/y;
const TERM = /^([A-Za-z_][A-Za-z0-9_]*)(<=|>=|!=|<|>|=|:)([\s\S]*)$/;
const BUILTIN = ["name", "text", "kind", "set", "rarity", "game"];
const TRUE_WORDS = ["true", "yes", "1", "y"];
const FALSE_WORDS = ["false", "no", "0", "n"];
const SMALLEST = -(2 ** 31);
const LARGEST = 2 ** 31 - 1;
const MAX_NESTING = 20;
const MAX_TERMS = 100;

class Unsure extends Error {}

function normalise(text) {
  return text.normalize("NFC").replace(/[\u2019\u2018\u02bc`\u00b4]/g, "'").replace(/\s+/g, " ").trim().toLowerCase();
}

function own(table, name) {  // a field or set the index names, never a property every object has
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

function unquote(text) {
  if (text.startsWith('"')) text = text.endsWith('"') && text.length > 1 ? text.slice(1, -1) : text.slice(1);
  return text.replaceAll('\\"', '"');
}

function tokens(query) {
  const found = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < query.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(query);
    if (!match || TOKEN.lastIndex === start) {
      if (query.slice(start).trim() === "") break;
      throw new Unsure();
    }
    const group = match.slice(1).findIndex((g) => g !== undefined);
    found.push([["open", "close", "neg", "quoted", "word"][group], match[group + 1]]);
  }
  const terms = found.filter(([kind, text]) => (kind === "quoted" || kind === "word") && text !== "or" && text !== "OR");
  if (terms.length > MAX_TERMS) throw new Unsure();
  return found;
}

function parse(query) {
  const list = tokens(query);
  let pos = 0;
  let depth = 0;
  const isOr = (tok) => tok && tok[0] === "word" && (tok[1] === "or" || tok[1] === "OR");
  const orExpr = () => {
    const parts = [andExpr()];
    while (isOr(list[pos])) { pos += 1; parts.push(andExpr()); }
    return parts.length === 1 ? parts[0] : { or: parts };
  };
  const andExpr = () => {
    const parts = [];
    while (pos < list.length && list[pos][0] !== "close" && !isOr(list[pos])) parts.push(unary());
    if (!parts.length) throw new Unsure();
    return parts.length === 1 ? parts[0] : { and: parts };
  };
  const unary = () => {
    const [kind, text] = list[pos];
    pos += 1;
    if (kind === "neg" || kind === "open") { depth += 1; if (depth > MAX_NESTING) throw new Unsure(); }
    if (kind === "neg") { const node = { not: unary() }; depth -= 1; return node; }
    if (kind === "open") {
      const node = orExpr();
      if (pos >= list.length || list[pos][0] !== "close") throw new Unsure();
      pos += 1;
      depth -= 1;
      return node;
    }
    if (kind === "close") throw new Unsure();
    if (kind === "quoted") return { key: "", op: ":", value: unquote(text) };
    const match = TERM.exec(text);
    if (match) return { key: match[1].toLowerCase(), op: match[2], value: unquote(match[3]) };
    return { key: "", op: "word", value: text };
  };
  const node = orExpr();
  if (pos < list.length) throw new Unsure();
  return node;
}

function wholeNumber(value) {
  if (!/^[+-]?\d+$/.test(value.trim())) throw new Unsure();
  const number = Number(value);
  if (number < SMALLEST || number > LARGEST) throw new Unsure();
  return number;
}

function check(node, index) {  // what CardSearch refuses, the engine says: this reading stays out of it
  if (node.and || node.or) return (node.and || node.or).forEach((part) => check(part, index));
  if (node.not) return check(node.not, index);
  if (node.key === "") return;
  const compare = ["<", "<=", ">", ">="].includes(node.op);
  if (BUILTIN.includes(node.key)) { if (compare) throw new Unsure(); return; }
  const field = own(index.fields, node.key);
  if (!field) throw new Unsure();
  const value = normalise(node.value);
  if (compare) { if (!["int", "map"].includes(field.type)) throw new Unsure(); wholeNumber(node.value); }
  else if (field.type === "bool" && ![...TRUE_WORDS, ...FALSE_WORDS].includes(value)) throw new Unsure();
  else if (field.type === "int" && /^-?\d+$/.test(value)) wholeNumber(node.value);
}

function matches(node, card, index) {
  if (node.and) return node.and.every((part) => matches(part, card, index));
  if (node.or) return node.or.some((part) => matches(part, card, index));
  if (node.not) return !matches(node.not, card, index);
  return term(node, card, index);
}

function term(node, card, index) {
  const flag = node.key === "" && node.op === "word" && own(index.fields, node.value.toLowerCase());
  if (flag && flag.type === "bool") return (own(card.values, flag.key) || []).some(([num]) => num === 1);
  const value = normalise(node.value);
  if (node.key === "") {
    return card.text.includes(value)
      || index.word_fields.some((key) => (own(card.values, key) || []).some(([, txt]) => txt === value));
  }
  const matched = BUILTIN.includes(node.key) ? builtin(node, value, card, index) : field(node, value, card, index);
  return node.op === "!=" ? !matched : matched;
}

function builtin(node, value, card, index) {
  if (node.key === "name") return node.op === "=" ? card.name === value : card.name.includes(value);
  if (node.key === "text") return card.text.includes(value);
  if (node.key === "kind") return card.kind === value;
  if (node.key === "game") return card.game === value;
  if (node.key === "set") return card.printings.some(([set]) => value === set || value === (own(index.sets, set) ?? set));
  return card.printings.some(([, rarity]) => rarity === value);
}

function field(node, value, card, index) {
  const definition = own(index.fields, node.key);
  const pairs = own(card.values, definition.key) || [];
  if (["<", "<=", ">", ">="].includes(node.op)) {
    const number = wholeNumber(node.value);
    const test = { "<": (a) => a < number, "<=": (a) => a <= number, ">": (a) => a > number, ">=": (a) => a >= number }[node.op];
    return pairs.some(([num]) => num !== null && test(num));
  }
  if (definition.type === "bool") {
    const held = pairs.some(([num]) => num === 1);
    return TRUE_WORDS.includes(value) ? held : !held;
  }
  if (definition.type === "int" && /^-?\d+$/.test(value)) {
    const number = wholeNumber(node.value);
    return pairs.some(([num]) => num === number);
  }
  if (definition.type === "text" && node.op === ":") return pairs.some(([, txt]) => txt !== null && txt.includes(value));
  return pairs.some(([, txt]) => txt === value);
}

// The keys of the cards `query` finds in `index`, in the index's order; null when the engine must answer.
export function quickSearch(index, query) {
  if (!index || /[^\x20-\x7e]/.test(query) || query.length > 2000) return null;
  try {
    const node = parse(query);
    check(node, index);
    return index.cards.filter((card) => matches(node, card, index)).map((card) => card.key);
  } catch (error) {
    if (error instanceof Unsure) return null;
    throw error;
  }
}
