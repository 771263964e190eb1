// gouji edit: the page. It keeps the record as plain data (session.py's shape), sends it to the
// server after each change and shows what the engine says: no rule is read here. Keys: Enter adds
// the action typed, Tab completes it from the legal actions, Backspace on an empty entry takes the
// last action back, Ctrl+Z / Ctrl+Y undo and redo, Ctrl+S saves. The work is kept in localStorage
// (a draft per file) until saved.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Gouji-Token"] = token;
  const TAGS = [...document.querySelectorAll("[data-tag]")];
  const DEAL = [...document.querySelectorAll("[data-seat]")];
  const STANDARD = new Set(TAGS.map((el) => el.dataset.tag));
  const GLYPH = /(!!|\?\?|!\?|\?!|!|\?)$/;

  let file = params.get("file") || "";
  let folder = "";
  let editing = null; // the action being changed (ArrowUp/ArrowDown, a click), or null: a new one
  let base = null;
  let hands = [];
  let current = 0;
  let verdict = null; // the server's answer for the current hands
  let undo = [], redo = [];
  let seq = 0, pending = Promise.resolve();
  let typedAt = null;
  let lastTook = null; // ms the server took over the last check (its Server-Timing)
  let tabIndex = -1, tabFrom = "";
  // For tests and bench/editor.py: keys pressed, verdicts shown, ms from each action entered to its
  // verdict shown and to its legal actions shown; entries made and shown; the seat to act and the legal actions.
  window.gouji = { timings: [], completions: [], answers: [], engine: [], keys: 0, checks: 0, entered: 0, shown: 0 };
  window.gouji.state = () => { const v = verdict && verdict[current]; return { to_act: v && v.table ? v.table.to_act : null, legal: v && v.legal ? v.legal : [], problems: v ? v.problems : [] }; };
  document.addEventListener("keydown", () => { window.gouji.keys++; }, true);

  const hand = () => hands[current];
  const draftKey = () => "gouji-edit:" + folder + "/" + file;
  const say = (text, bad) => { $("status").textContent = text; $("status").className = bad ? "bad" : ""; };

  async function api(path, body) {
    const init = body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) };
    const url = path + (body === undefined && token ? (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : "");
    const r = await fetch(url, init);
    const data = await r.json().catch(() => ({ error: "the server's answer is not JSON (" + r.status + ")" }));
    if (!r.ok) throw new Error(data.error || String(r.status));
    const took = /dur=([\d.]+)/.exec(r.headers.get("server-timing") || "");
    if (took) lastTook = +took[1];
    return data;
  }

  // --- state: undo, redo, draft ---
  function snapshot() { return JSON.stringify({ hands, current }); }
  function restore(s) { const d = JSON.parse(s); hands = d.hands; current = d.current; }
  function change(apply) {
    undo.push(snapshot());
    if (undo.length > 500) undo.shift();
    redo = [];
    apply();
    touched();
  }
  function touched() {
    recheck(); // first: the page is drawn while the engine works
    localStorage.setItem(draftKey(), JSON.stringify({ base, hands, current, at: Date.now() }));
    $("discard").hidden = false;
    say("not saved (a draft is kept in this browser) 未保存");
    fill();
  }
  function step(from, to) {
    if (!from.length) return;
    to.push(snapshot());
    restore(from.pop());
    touched();
  }

  // --- the form <-> the data ---
  function fill() {
    const h = hand();
    for (const el of TAGS) if (document.activeElement !== el) el.value = h.tags[el.dataset.tag] || (el.tagName === "SELECT" ? "charter" : "");
    const more = Object.entries(h.tags).filter(([k]) => !STANDARD.has(k)).map(([k, v]) => k + ": " + v).join("\n");
    if (document.activeElement !== $("more-tags")) $("more-tags").value = more;
    DEAL.forEach((el, i) => { if (document.activeElement !== el) el.value = h.deal[i] === "?36" ? "" : h.deal[i]; });
    if (document.activeElement !== $("preplay")) $("preplay").value = h.preplay.map(itemText).join(" ");
    const sel = $("hand-select");
    sel.replaceChildren(...hands.map((_, i) => new Option("hand 第" + (i + 1) + "局", i)), new Option("+ new hand 新一局", "new"));
    sel.value = String(current);
    $("file").textContent = file;
    renderPlay();
  }
  function readTags() {
    const tags = {};
    for (const el of TAGS) if (el.value.trim()) tags[el.dataset.tag] = el.value.trim();
    for (const line of $("more-tags").value.split("\n")) {
      const at = line.indexOf(":");
      if (at > 0) tags[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    return tags;
  }
  function itemText(it) {
    return (it.text + (it.glyph || "") + (it.nags || []).map((n) => " $" + n).join("") +
      (it.comments || []).map((c) => " {" + c + "}").join(""));
  }
  // One entry as an item: the action, a glyph after it, $n, {comments}; or comments alone.
  function parseEntry(s) {
    const comments = [];
    let rest = s.replace(/\{([^}]*)\}/g, (_, c) => { comments.push(c.trim().replace(/\s+/g, " ")); return " "; }).trim();
    const nags = [];
    const words = rest.split(/\s+/).filter((w) => w && !(/^\$\d+$/.test(w) && nags.push(+w.slice(1))));
    if (words.length > 1) throw new Error("one action at a time: " + words.join(" "));
    let text = words[0] || "", glyph = "";
    const g = text.match(GLYPH);
    if (g && /[0-9TJQKA2XD\-~]$/i.test(text.slice(0, -g[0].length))) { glyph = g[0]; text = text.slice(0, -g[0].length); }
    return { text, glyph, nags, comments, round: null };
  }
  // The seat of an action typed without one: the one legal action that writes it, else the seat to act.
  function withSeat(text) {
    if (!text || /^\^?[1-6][:：]/.test(text) || /^(buy|gift) /.test(text)) return text;
    const mark = text.startsWith("^") ? "^" : "";
    const body = text.slice(mark.length);
    const v = verdict && verdict[current];
    const found = v && v.legal ? v.legal.find((t) => t.slice(t.indexOf(":") + 1) === body) : null;
    if (found && !mark) return found;
    const seat = v && v.table ? v.table.to_act : null;
    if (!seat) throw new Error("whose turn it is is not known here: write the seat (4:JJJJJ)");
    return mark + seat + ":" + body;
  }

  // --- checking ---
  function recheck() {
    const mine = ++seq;
    const body = { hands }, sent = performance.now();
    pending = api("/api/check", body).then((data) => {
      if (mine !== seq) return;
      if (typedAt !== null) { window.gouji.answers.push(performance.now() - sent); window.gouji.engine.push(lastTook); }
      verdict = data.hands;
      window.gouji.checks++;
      autoResult();
      renderVerdict();
      const at = typedAt;
      typedAt = null;
      if (at !== null) requestAnimationFrame(() => { window.gouji.timings.push(performance.now() - at); });
      // then the legal actions there (completion, the seat of a burn): slower than the verdict at a lead
      const hand = current;
      return api("/api/legal", { hands, hand }).then((r) => {
        if (mine !== seq || !verdict[hand]) return;
        verdict[hand].legal = r.legal;
        renderVerdict();
        if (at !== null) requestAnimationFrame(() => { window.gouji.completions.push(performance.now() - at); });
      });
    }).catch((e) => { if (mine === seq) say(e.message, true); });
    return pending;
  }
  function autoResult() {
    const v = verdict[current], h = hand();
    if (v && v.result && (!h.tags.Result || h.tags.Result === "*")) { h.tags.Result = v.result; fill(); recheck(); }
  }

  // --- rendering ---
  function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function renderPlay() {
    const h = hand(), v = verdict && verdict[current];
    const list = $("play");
    list.replaceChildren();
    for (const c of h.comment) list.append(el("li", "comment", "{" + c + "}"));
    const bad = v ? v.problems.filter((p) => p.section === "actions" && p.item !== null) : [];
    const stop = bad.length ? bad[0].item : Infinity;
    h.actions.forEach((it, i) => {
      const li = el("li", "item");
      li.dataset.i = i;
      if (i === editing) li.classList.add("editing");
      li.addEventListener("click", () => { pick(i); $("entry").focus(); });
      li.append(el("span", "act", it.text + (it.glyph || "")));
      for (const c of it.comments || []) li.append(el("span", "comment", " {" + c + "}"));
      if (v && v.events) for (const e of v.events) if (e.section === "actions" && e.item === i) li.append(el("span", "ev ev-" + e.kind, e.kind_zh));
      if (i === stop) { li.classList.add("bad"); li.append(el("div", "why", bad[0].message)); }
      else if (i > stop) li.classList.add("unchecked");
      list.append(li);
    });
    list.lastElementChild && list.lastElementChild.scrollIntoView({ block: "nearest" });
  }
  function renderVerdict() {
    renderPlay();
    const v = verdict[current];
    const probs = $("problems");
    probs.replaceChildren();
    for (const p of v.problems) {
      const named = { actions: "action", preplay: "pre-play action", deal: "deal, seat" }[p.section] || p.section;
      const where = p.item !== null && p.item !== undefined ? named + " " + (p.item + 1) + ": " : named + ": ";
      const li = el("li", "bad", where + "error[" + p.code + "]: " + p.message);
      if (p.message_zh) li.append(el("div", "zh", p.message_zh));
      if (p.rule) li.append(el("div", "rule", "rule: " + p.rule + (p.rule_zh ? " (" + p.rule_zh + ")" : "") + " — " + p.source));
      probs.append(li);
    }
    if (!v.problems.length) probs.append(el("li", "ok", v.table && v.table.phase === "over" ? "valid: the hand is over 合规，一局结束" : "valid so far 合规"));
    const t = v.table;
    $("turn").textContent = !t ? "" : t.phase === "over" ? "the hand is over 一局结束" :
      "round " + t.round + " (第" + t.round + "轮); seat " + t.to_act + " to act (轮到" + t.to_act + "号位)" +
      (t.top ? "; top 桌面: " + t.top.cards + " by seat " + t.top.seat + (t.top.gouji ? ", a gouji play 够级" : "") : "; leads 发牌");
    $("prompt").textContent = editing !== null ? "action " + (editing + 1) + " 改" : t && t.to_act ? "seat " + t.to_act + " 号位" : "—";
    const seats = $("seats");
    seats.replaceChildren();
    if (t) for (const s of t.seats) {
      const tr = el("tr", s.seat === t.to_act ? "to-act" : "");
      const may = (v.legal || []).filter((a) => a.startsWith(s.seat + ":")).map((a) => a.slice(2));
      const flags = [s.status !== "playing" ? s.status + (s.place ? " #" + s.place : "") : "", s.headless ? "无头" : "", s.opened ? "开点" : "",
        may.some((a) => a.startsWith("*")) ? "may burn 可烧" : ""].filter(Boolean).join(" ");
      tr.append(el("th", "", String(s.seat)), el("td", "held", String(s.held)), el("td", "cards", s.text), el("td", "flags", flags));
      seats.append(tr);
    }
    const evs = $("events");
    evs.replaceChildren(...(v.events || []).filter((e) => e.kind !== "round-end").map((e) =>
      el("li", "ev-" + e.kind, "#" + e.number + " " + e.kind_zh + " " + e.kind + (e.seats.length ? " seat " + e.seats.join("→") : "") +
        (e.cards ? " " + e.cards : "") + (e.place ? " place " + e.place : ""))));
    suggest();
    cards();
  }
  function matches() {
    const v = verdict && verdict[current];
    const typed = $("entry").value.trim();
    if (!v || !v.legal || typed.includes("{")) return [];
    return v.legal.filter((t) => /^[1-6][:：]/.test(typed) ? t.startsWith(typed) : t.slice(t.indexOf(":") + 1).startsWith(typed));
  }
  function suggest() {
    const list = matches();
    $("suggest").replaceChildren(...list.slice(0, 12).map((t, i) => el("li", i === tabIndex ? "on" : "", t)));
  }
  function cards() {
    const v = verdict && verdict[current], box = $("cards");
    box.replaceChildren();
    const t = v && v.table;
    if (!t || !t.to_act) return;
    const s = t.seats[t.to_act - 1];
    const counts = {};
    for (const c of s.cards || "") counts[c] = (counts[c] || 0) + 1;
    for (const [c, n] of Object.entries(counts)) {
      const b = el("button", "card", c + (n > 1 ? "×" + n : ""));
      b.type = "button";
      b.tabIndex = -1;
      b.addEventListener("click", () => { $("entry").value += c; $("entry").focus(); suggest(); });
      box.append(b);
    }
  }

  // --- entry ---
  let queue = Promise.resolve();
  async function settled() { // the verdict of everything sent so far
    for (let p = pending; ; p = pending) { await p; if (p === pending) return; }
  }
  function add() {
    const box = $("entry");
    const typed = box.value.trim();
    if (!typed) return;
    const at = performance.now();
    box.value = ""; // what is typed next waits in the box while the verdict before comes
    tabIndex = -1;
    window.gouji.entered++;
    const at_item = editing;
    editing = null;
    queue = queue.then(() => commit(typed, at, at_item)).finally(() => { window.gouji.shown++; });
  }
  async function commit(typed, at, index) {
    await settled(); // whose turn it is comes from the last verdict
    let item;
    try {
      item = parseEntry(typed);
      if (index !== null && index < hand().actions.length && item.text && !/^\^?[1-6][:：]/.test(item.text)) {
        const mark = item.text.startsWith("^") ? "^" : "";  // a changed action keeps its seat
        item.text = mark + hand().actions[index].text.replace(/^\^/, "").split(":")[0] + ":" + item.text.slice(mark.length);
      } else item.text = withSeat(item.text);
    } catch (e) { say(e.message, true); $("entry").value = typed + $("entry").value; return; }
    typedAt = at;
    change(() => {
      const h = hand();
      if (index !== null && index < h.actions.length) {
        if (item.text) h.actions[index] = item;
        else h.actions[index].comments.push(...item.comments);
      } else if (item.text) h.actions.push(item);
      else if (h.actions.length) h.actions[h.actions.length - 1].comments.push(...item.comments);
      else h.comment.push(...item.comments);
    });
    await settled();
  }
  // Change action i (its text in the entry; Enter replaces it, Escape leaves it), or go back to a new one.
  function pick(i) {
    editing = i;
    $("entry").value = i === null ? "" : itemText(hand().actions[i]);
    tabIndex = -1;
    if (verdict) renderVerdict();
    else renderPlay();
  }
  function takeBack() {
    const h = hand();
    if (!h.actions.length) return;
    let text;
    change(() => { text = itemText(h.actions.pop()); });
    $("entry").value = text;
  }
  $("entry").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); add(); }
    else if (e.key === "Tab" && !e.shiftKey) {
      const list = tabIndex < 0 ? matches() : matchesFrom(tabFrom);
      if (!list.length) return;
      e.preventDefault();
      if (tabIndex < 0) tabFrom = $("entry").value;
      tabIndex = (tabIndex + 1) % list.length;
      $("entry").value = list[tabIndex];
      suggestFrom(list);
    } else if (e.key === "Backspace" && !$("entry").value && editing === null) { e.preventDefault(); takeBack(); }
    else if (e.key === "ArrowUp" && (editing !== null || !$("entry").value.trim()) && hand().actions.length) {
      e.preventDefault();
      pick(editing === null ? hand().actions.length - 1 : Math.max(0, editing - 1));
    } else if (e.key === "ArrowDown" && editing !== null) {
      e.preventDefault();
      pick(editing + 1 < hand().actions.length ? editing + 1 : null);
    } else if (e.key === "Escape" && editing !== null) { e.preventDefault(); pick(null); }
  });
  function matchesFrom(from) { const keep = $("entry").value; $("entry").value = from; const m = matches(); $("entry").value = keep; return m; }
  function suggestFrom(list) { $("suggest").replaceChildren(...list.slice(0, 12).map((t, i) => el("li", i === tabIndex ? "on" : "", t))); }
  $("entry").addEventListener("input", () => { tabIndex = -1; suggest(); });

  // --- the forms ---
  for (const input of [...TAGS, $("more-tags")]) input.addEventListener("change", () => change(() => { hand().tags = readTags(); }));
  DEAL.forEach((input, i) => input.addEventListener("change", () => change(() => { hand().deal[i] = input.value.trim() || "?36"; })));
  $("preplay").addEventListener("change", () => {
    try {
      const items = $("preplay").value.trim().split(/\s+(?=\^?(?:buy |gift )?[1-6][>:：])/).filter(Boolean).map(parseEntry);
      change(() => { hand().preplay = items; });
    } catch (e) { say(e.message, true); }
  });
  $("hand-select").addEventListener("change", (e) => {
    const value = e.target.value;
    change(() => {
      if (value === "new") {
        const tags = Object.fromEntries(Object.entries(hand().tags).filter(([k]) => !["Result", "Score"].includes(k)));
        hands.push({ tags, deal: Array(6).fill("?36"), comment: [], preplay: [], actions: [] });
        current = hands.length - 1;
      } else current = +value;
    });
  });

  // --- buttons and keys ---
  async function save() {
    try {
      await queue;
      await settled();
      const r = await api("/api/save", { file, hands, base });
      base = r.base;
      localStorage.removeItem(draftKey());
      $("discard").hidden = true;
      say("saved 已保存 " + r.file);
    } catch (e) { say(e.message, true); }
  }
  async function preview() {
    try {
      const r = await api("/api/preview", { hands });
      window.open(r.url + (token ? "?token=" + encodeURIComponent(token) : ""), "_blank");
    } catch (e) { say(e.message, true); }
  }
  $("undo").addEventListener("click", () => step(undo, redo));
  $("redo").addEventListener("click", () => step(redo, undo));
  $("save").addEventListener("click", save);
  $("preview").addEventListener("click", preview);
  $("discard").addEventListener("click", () => { localStorage.removeItem(draftKey()); location.reload(); });
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    const k = e.key.toLowerCase();
    const own = document.activeElement && document.activeElement !== $("entry") && /INPUT|TEXTAREA/.test(document.activeElement.tagName);
    if (k === "s") { e.preventDefault(); save(); }
    else if (own) return; // a field's own undo
    else if (k === "z" && !e.shiftKey) { e.preventDefault(); step(undo, redo); }
    else if (k === "y" || (k === "z" && e.shiftKey)) { e.preventDefault(); step(redo, undo); }
  });

  // --- start: the file, or the draft kept for it ---
  (async () => {
    try {
      const data = await api("/api/open" + (file ? "?file=" + encodeURIComponent(file) : ""));
      file = data.file; folder = data.folder; base = data.base; hands = data.hands;
      const kept = JSON.parse(localStorage.getItem(draftKey()) || "null");
      if (kept && JSON.stringify(kept.hands) !== JSON.stringify(hands)) {
        hands = kept.hands; current = Math.min(kept.current || 0, hands.length - 1);
        const opened = base; base = kept.base; // a save then refuses a file changed since the draft began
        $("discard").hidden = false;
        say(kept.base === opened ? "draft restored: not saved yet 草稿已恢复" :
          "draft restored, but the file has changed on disk since: saving is refused until you discard the draft", kept.base !== opened);
      } else say(data.exists ? "opened 已打开 " + file : "new file 新文件 " + file);
      fill();
      const fresh = hands.length === 1 && !hand().actions.length && !hand().tags.Event;
      (fresh ? document.querySelector("[data-tag=Event]") : $("entry")).focus();
      await recheck();
    } catch (e) { say(e.message, true); }
  })();
})();
