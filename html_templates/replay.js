/* gouji-record replay page. Data comes from the JSON block #replay-data (computed in
   gouji_record/render/html.py); this script only presents it. Text from a record is only
   ever set with textContent. */
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("replay-data").textContent);
  var app = document.getElementById("app");
  var SVGNS = "http://www.w3.org/2000/svg";
  var ORDER = "DX2AKQJT9876543";
  var SEAT_COLOURS = ["#c0392b", "#1f5fa8", "#e67e22", "#0e9384", "#b8337a", "#6a4fc9"];

  var L = {
    zh: {
      seat: "{n}号位", round: "第 {n} 轮", led: "{s}号位领出", deal: "发牌", preplay: "出牌前声明", tributePhase: "进贡", toGive: "该交牌",
      showPhase: "上班", drawPhase: "抽签组邦",
      pass: "过", yield: "让", burn: "烧", wind: "请接风", claim: "挑牌", revolt: "革命", "keep-head": "要头",
      "no-head": "无头", natural: "自然开点", call: "宣点", precall: "预点", give: "给 {s}号位",
      show: "亮牌 (上班)", draw: "抽签 (组邦)", leads: "{s}号位首发",
      cards: "{n} 张", report: "报户 {n}", toAct: "该出牌", opened: "开点", headless: "无头",
      burning: "烧 {s}号位", burned: "被烧", melee: "四户乱缠", revolted: "革命", out: "出局",
      gouji: "够级 → 对头 {s}号位", dead: "死牌", burnOnly: "够死级 · 只可烧",
      roundOver: "扣牌 · {s}号位领出下一轮", over: "一局结束", void: "该局作废",
      score: "得分", team1: "1·3·5 联邦", team0: "2·4·6 联邦", extras: "个人加减分",
      illegal: "违规", notReplayed: "未复盘", banner: "此记录第 {n} 步违规，回放止于此步之前。",
      bannerEnd: "此记录与对局不符：", jump: "跳到违规处", order: "逆时针出牌",
      hiddenHand: "{n} 张", unknown: "未知", bigJoker: "大王", smallJoker: "小王", top: "桌面",
      step: "第 {i} / {n} 步", rule: "规则", source: "出处", action: "第 {n} 步",
      lanes: { gouji: "够级", open: "开点", burn: "烧牌", place: "名次", wind: "接风", state: "无头·乱缠",
               other: "闷·革命等", ruling: "裁定", review: "点评", illegal: "违规" },
      view0: "全部手牌", chartAxis: "步", reportLine: "报户", page: "够级回放", error: "违规",
      tags: { Event: "赛事", Site: "地点", Date: "日期", Round: "场次", Ruleset: "规则", Result: "结果", Score: "得分",
              Match: "比赛", Hand: "局", Annotator: "注释者", Options: "规则选项", Seed: "随机种子" },
      allEvents: "全部事件", copy: "复制链接", copied: "已复制", copyFailed: "复制失败",
      said: "第 {n} 步：{what}", valueText: "第 {i} / {n} 步：{what}", plays: "{s}号位 出 {c}", burns: "{s}号位 烧 {c}",
      dealt: "发牌", close: "关闭", found: "找到 {n} 局", standings: "比赛累计", matchOver: "比赛结果", history: "{s}号位出过的牌", noPlays: "还没出牌",
      help: "快捷键", helpKeys: [["← →", "上一步 / 下一步"], ["↑ ↓", "上一轮 / 下一轮"], ["Home End", "开头 / 结尾"],
        ["空格", "自动播放"], ["n p", "下一个 / 上一个事件（可选事件种类）"], ["滑动 · 滚轮", "在牌桌上一步一步走（滚轮须勾选“滚轮走步”）"],
        ["[ ]", "上一局 / 下一局（自动播放接着下一局）"], ["点座位名字", "该座位出过的牌"], ["?", "显示 / 关闭本说明"]]
    },
    en: {
      seat: "seat {n}", round: "Round {n}", led: "seat {s} led", deal: "Deal", preplay: "Declarations", tributePhase: "Tribute", toGive: "to give",
      showPhase: "Showing for the lead", drawPhase: "Drawing the teams",
      pass: "pass", yield: "yield", burn: "burn", wind: "asks for the wind", claim: "claims the rest",
      revolt: "revolution", "keep-head": "keep a head", "no-head": "no head", natural: "natural opening",
      call: "call", precall: "pre-call", give: "gives seat {s}",
      show: "shows", draw: "draws", leads: "seat {s} leads",
      cards: "{n} cards", report: "reports {n}", toAct: "to play", opened: "opened", headless: "headless",
      burning: "burning seat {s}", burned: "burned", melee: "four-way melee", revolted: "revolution", out: "out",
      gouji: "gouji play → opposite, seat {s}", dead: "dead play", burnOnly: "dead gouji · burn only",
      roundOver: "round won · seat {s} leads next", over: "Hand over", void: "Hand void",
      score: "Score", team1: "Team 1·3·5", team0: "Team 2·4·6", extras: "Personal extras",
      illegal: "Illegal", notReplayed: "not replayed", banner: "This record breaks a rule at action {n}: the replay stops before it.",
      bannerEnd: "This record disagrees with its play: ", jump: "Go to the illegal action", order: "counterclockwise",
      hiddenHand: "{n} cards", unknown: "unknown", bigJoker: "BJ", smallJoker: "SJ", top: "Top",
      step: "action {i} of {n}", rule: "rule", source: "source", action: "action {n}",
      lanes: { gouji: "Gouji", open: "Open", burn: "Burn", place: "Places", wind: "Wind", state: "Headless, melee",
               other: "Smother, revolution", ruling: "Rulings", review: "Review", illegal: "Illegal" },
      view0: "All hands", chartAxis: "actions", reportLine: "report", page: "Gouji replay", error: "error",
      tags: {},
      allEvents: "all events", copy: "Copy link", copied: "Copied", copyFailed: "Copy failed",
      said: "Action {n}: {what}", valueText: "action {i} of {n}: {what}", plays: "seat {s} plays {c}", burns: "seat {s} burns {c}",
      dealt: "the deal", close: "Close", found: "{n} found", standings: "Match standings", matchOver: "Match result", history: "Seat {s}'s plays", noPlays: "no plays yet",
      help: "Keys", helpKeys: [["← →", "previous / next action"], ["↑ ↓", "previous / next round"], ["Home End", "first / last"],
        ["space", "autoplay"], ["n p", "next / previous event (of the kind chosen)"], ["swipe · wheel", "step on the table (the wheel with “wheel steps” ticked)"],
        ["[ ]", "previous / next hand (autoplay goes on to the next)"], ["click a seat's name", "the seat's plays so far"],
        ["?", "show / hide this list"]]
    }
  };
  // event kind → timeline lane, marker glyph in Chinese, in English
  var KIND = {
    "gouji": ["gouji", "级", "G"], "answer": ["gouji", "打", "A"], "dead-gouji": ["gouji", "死", "D"], "unbeatable": ["gouji", "绝", "U"],
    "open": ["open", "开", "O"], "open-qualified": ["open", "4", "4"], "open-given-up": ["open", "弃", "×"],
    "natural-opening": ["open", "自", "N"],
    "burn": ["burn", "烧", "B"], "burn-success": ["burn", "成", "✓"], "burn-broken": ["burn", "解", "✗"],
    "burn-failure": ["burn", "败", "F"], "counter-burn": ["burn", "反", "C"],
    "finish": ["place", "", ""], "placed": ["place", "", ""], "out": ["place", "出", "X"], "sweep": ["place", "串", "S"], "hand-end": ["place", "终", "E"],
    "take-the-wind": ["wind", "风", "W"], "wind-request": ["wind", "请", "R"],
    "headless": ["state", "无", "H"], "keep-head": ["state", "要", "K"], "melee": ["state", "乱", "M"],
    "smother": ["other", "闷", "S"], "revolution": ["other", "革", "R"], "void-hand": ["other", "废", "V"],
    "claim": ["other", "挑", "C"], "ruling": ["ruling", "裁", "!"], "give": ["other", "交", "T"], "refuse": ["other", "拒", "R"], "call": ["open", "宣", "C"],
    "show": ["other", "亮", "L"], "draw": ["other", "签", "D"],
    // findings of gouji review (render --review): what else the rules allowed at a decision
    "burn-missed": ["review", "烧", "B"], "answer-missed": ["review", "打", "A"], "opening-missed": ["review", "开", "O"],
    "yield-taken": ["review", "让", "Y"], "yield-missed": ["review", "让", "Y"], "threes-only": ["review", "3", "3"],
    "smothered": ["review", "闷", "S"], "undecided": ["review", "?", "?"],
    "partner-burn-missed": ["review", "烧", "B"], "qualify-missed": ["review", "开", "O"],
    "fours-missed": ["review", "4", "4"], "opening-given-up": ["review", "弃", "G"]
  };
  var SUIT = { s: "♠", h: "♥", c: "♣", d: "♦" };
  var LANES = ["gouji", "open", "burn", "place", "wind", "state", "other", "ruling", "review"];

  var H, frames, actions, events, last, illegalStep, offender;
  var handNo = 0, idx = 0, lang = page.lang === "en" ? "en" : "zh", view = clamp(page.seat, 0, 6);
  var pageLang = lang, pageView = view;  // what the page was made with: a link names only what differs
  var timer = null, speed = 1;
  var seatBoxes = [], actionItems = [], eventItems = [], markers = [], chartParts = null;

  function $(id) { return document.getElementById(id); }
  function t(key) { return L[lang][key]; }
  function fmt(s, o) { return s.replace(/\{(\w+)\}/g, function (m, k) { return o[k]; }); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    return e;
  }
  function team(seat) { return seat % 2; }
  function bubble(seat) { return el("span", "no team" + team(seat), String(seat)); }
  function placeName(p) { return H.placeNames[lang][p - 1]; }
  function seatName(s) { return fmt(t("seat"), { n: s }); }
  function frameAt(i) { return frames[Math.min(i, frames.length - 1)]; }

  /* ---------- cards ---------- */
  // a card's name as a screen reader says it: 大王, 10 …; with a count, 3张K / 3 kings
  var RANK_NAMES = { zh: { D: "大王", X: "小王", T: "10", "?": "未知牌" },
    en: { D: "big joker", X: "small joker", A: "ace", K: "king", Q: "queen", J: "jack", T: "10", "?": "unknown card" } };
  function cardName(rank, n) {
    var name = RANK_NAMES[lang][rank] || rank;
    if (lang === "zh") return n > 1 ? n + "张" + name : name;
    return n > 1 ? n + " " + name + "s" : name;
  }
  function cardsName(cards) {  // a play, its cards grouped by rank: 2张小王、2张K / 2 small jokers, 2 kings
    var out = [];
    for (var i = 0; i < ORDER.length; i++) {
      var n = cards.split(ORDER[i]).length - 1;
      if (n) out.push(cardName(ORDER[i], n));
    }
    return out.join(lang === "zh" ? "、" : ", ");
  }
  function card(rank, n, extra) {
    var c = el("span", "card" + (extra ? " " + extra : ""));
    var label = rank;  // ten is T, as the notation writes it (docs/notation.md) and every play on the page
    if (rank === "D") { c.className += " joker big"; label = t("bigJoker"); }
    else if (rank === "X") { c.className += " joker small"; label = t("smallJoker"); }
    else if (rank === "?") { c.className += " unknown"; }
    else if (rank === "2") c.className += " money";
    else if ("AKQJ".indexOf(rank) >= 0) c.className += " red";
    c.setAttribute("data-rank", rank);
    c.setAttribute("data-n", n);
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", cardName(rank, n));
    c.appendChild(el("span", "rk", label)).setAttribute("aria-hidden", "true");
    if (n > 1) { c.className += " many"; c.appendChild(el("span", "n", "×" + n)).setAttribute("aria-hidden", "true"); }
    return c;
  }
  function cardRow(cards, box, extra, unknown) {
    for (var i = 0; i < ORDER.length; i++) {
      var n = 0;
      for (var j = 0; j < cards.length; j++) if (cards[j] === ORDER[i]) n++;
      if (n) box.appendChild(card(ORDER[i], n, extra));
    }
    if (unknown) box.appendChild(card("?", unknown, extra));
    return box;
  }
  function fan(cards, extra) {  // a play as it lies on the table: one card each, overlapping; named as a whole
    var box = el("span", "fan" + (cards.length > 12 ? " dense" : ""));
    box.setAttribute("data-cards", cards);
    for (var i = 0; i < cards.length; i++) box.appendChild(card(cards[i], 1, extra)).setAttribute("aria-hidden", "true");
    var named = el("span", "sr-only");
    for (var j = 0; j < ORDER.length; j++) {
      var n = cards.split(ORDER[j]).length - 1;
      if (n) named.appendChild(el("span", "", "")).setAttribute("role", "img");
      if (n) named.lastChild.setAttribute("aria-label", cardName(ORDER[j], n));
    }
    box.appendChild(named);
    return box;
  }
  function said(i) {  // what action i did, in words: 1号位 出 5张10 / seat 5 burns 2 small jokers, 2 kings
    var a = actions[i];
    if (a.kind === "play") return fmt(t(a.burn ? "burns" : "plays"), { s: a.seat, c: cardsName(a.cards) });
    return seatName(a.seat) + " " + actionLabel(a);
  }
  function actionLabel(a) {
    if (a.kind === "play") return null;
    if (a.kind === "give") return (a.trade ? a.trade[lang] + " · " : "") + fmt(t("give"), { s: a.to }) + " " + a.cards;
    if (a.suit) return t(a.kind) + " " + SUIT[a.suit] + a.cards;
    return t(a.kind) || a.kind;
  }

  /* ---------- tooltip ---------- */
  var tip = $("tip");
  function tipLines(evs) {
    var lines = [];
    evs.forEach(function (e) {
      lines.push(evText(e) + " · " + fmt(t("action"), { n: e.action + 1 }));
      lines.push(t("rule") + ": " + e.rule[lang]);
      lines.push(t("source") + ": " + source(e.source));
    });
    return lines;
  }
  function attachTip(node, lines) {
    node._tip = lines;
    node.setAttribute("aria-label", lines.join(" — "));
    node.addEventListener("mouseenter", showTip);
    node.addEventListener("focus", showTip);
    node.addEventListener("mouseleave", hideTip);
    node.addEventListener("blur", function () { if (!node.matches(":hover")) hideTip(); });  // a click moves focus away
  }
  var tipNode = null;
  function showTip(e) {
    var node = e.currentTarget, lines = node._tip;
    tipNode = node;
    tip.textContent = "";
    lines.forEach(function (line, i) { tip.appendChild(el("div", i % 3 === 0 ? "tip-head" : "", line)); });
    tip.hidden = false;
    placeTip(node);
  }
  function placeTip(node) {
    var r = node.getBoundingClientRect(), w = tip.offsetWidth, h = tip.offsetHeight;
    var x = Math.max(4, Math.min(window.innerWidth - w - 4, r.left + r.width / 2 - w / 2));
    var y = r.top - h - 8;
    if (y < 4) y = r.bottom + 8;
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  function hideTip() { tip.hidden = true; tipNode = null; }
  function scrolled() {  // the page moved under the pointer: the tip follows its marker while it is hovered
    if (tipNode && tipNode.matches(":hover, :focus")) placeTip(tipNode);
    else hideTip();
  }

  /* ---------- events ---------- */
  function evText(e) {
    var s = e[lang];
    if (e.suit) {  // 上班 and 抽签组邦: the seat, its suited cards, and who leads after a show
      s += " " + e.seats[0] + " " + SUIT[e.suit] + e.cards;
      return e.kind === "show" ? s + " · " + fmt(t("leads"), { s: e.seats[1] }) : s;
    }
    if (e.kind === "hand-end" || e.kind === "melee") { if (e.seats.length) s += " " + e.seats.join("·"); }
    else if (e.seats.length) s += " " + e.seats.join("→");
    if (e.place) s += " " + placeName(e.place);
    else if (e.cards) s += " " + e.cards;
    if ((e.kind === "ruling" || e.review) && e.note) s += " · " + e.note[lang];  // the diagnostic ruled on; a finding
    return s;
  }
  // A source in the page's language: the rule text by its name, the section, and its quotations of
  // the text (in “…” on the English page).
  function source(src) { var c = H.cites[src]; return c ? c[lang] : src; }
  function cite(src) { return source(src); }
  function glyph(e) {
    var k = KIND[e.kind] || ["other", "?", "?"];
    if (e.kind === "finish" || e.kind === "placed") return String(e.place || "");
    if (e.kind === "give" && e.rule.key === "buying") return lang === "zh" ? "买" : "B";  // 买三, 买四
    if (e.kind === "give" && e.rule.key === "gift") return lang === "zh" ? "赠" : "G";  // 赠与
    if (e.kind === "give" && TRIBUTE[e.zh]) return TRIBUTE[e.zh][lang === "zh" ? 0 : 1];
    return k[lang === "zh" ? 1 : 2];
  }
  function lane(e) { return (KIND[e.kind] || ["other"])[0]; }
  // the kinds of tribute, each its own marker: 点贡 点 / Pt, 落贡 落 / Pl …
  var TRIBUTE = { "闷贡": ["闷", "Sm"], "烧贡": ["烧", "Bu"], "点贡": ["点", "Pt"], "落贡": ["落", "Pl"], "还贡": ["还", "R"], "对头贡": ["对", "Sw"] };
  // the pre-play step after ``i`` actions, if any: the seat that acts next in it
  function preplayNext(i) { return i < actions.length && actions[i].preplay ? actions[i] : null; }
  function phaseName(a) {  // the pre-play step ``a`` belongs to, named
    if (!a) return t("preplay");
    if (a.kind === "show") return t("showPhase");
    if (a.kind === "draw") return t("drawPhase");
    if (a.kind === "give" && a.trade && TRIBUTE[a.trade.zh]) return t("tributePhase") + " · " + a.trade[lang];
    if (a.kind === "give" && a.trade) return a.trade[lang];
    if (a.kind === "give") return t("tributePhase");
    return t("preplay");
  }

  // The hand's events and the findings of its review as the current view may show them: in a
  // seat's view, that seat's own review if the page has it (render --seat N --review), else the
  // whole table's findings, each marked as the whole-table view (they use cards the seat cannot see).
  function handEvents() {
    var own = view && H.reviewViews ? H.reviewViews[String(view)] : null, found = own || H.review || [];
    if (view && !own) found = found.map(function (f) { return Object.assign({}, f, { note: tableView(f.note) }); });
    return H.events.concat(found).sort(function (a, b) { return a.action - b.action; });  // stable
  }
  function tableView(note) {
    return { zh: "全局视角（用到此座位看不见的牌）：" + note.zh, en: "whole-table view (uses cards this seat cannot see): " + note.en };
  }

  /* ---------- a hand's data, as the page carries it (gouji_record/render/html.py, page_hand) ---------- */
  // Frame 0 whole, each later frame the keys that changed (the six-seat lists as {seat index: value}),
  // the round so far as the index of its first action: expanded once per hand, as data.
  function expandFrames(changes) {
    var out = [], f = null;
    changes.forEach(function (d, i) {
      f = Object.assign({}, f);
      Object.keys(d).forEach(function (k) {
        var v = d[k];
        if (v !== null && typeof v === "object" && !Array.isArray(v) && Array.isArray(f[k]) && k !== "top") {
          f[k] = f[k].slice();
          Object.keys(v).forEach(function (s) { f[k][+s] = v[s]; });
        } else f[k] = v;
      });
      f.trick = [];
      for (var j = f.trickFrom; j < i; j++) f.trick.push(j);
      out.push(f);
    });
    return out;
  }
  var ACTION_DEFAULTS = { to: null, burn: false, glyph: "", nags: [], irregular: false, comments: [], preplay: false,
    purpose: null, suit: null, trade: null, lead: false };
  function expandActions(list) { return list.map(function (a) { return Object.assign({}, ACTION_DEFAULTS, a); }); }

  /* ---------- building (once per hand and language) ---------- */
  function loadHand(n) {
    handNo = clamp(n, 0, page.hands.length - 1);
    H = page.hands[handNo];
    if (!H.expanded) {
      H.frames = expandFrames(H.frames); H.actions = expandActions(H.actions);
      H.events.forEach(function (e) { e.rule = Object.assign({ key: e.rule }, H.rules[e.rule]); e.source = H.sources[e.source]; });
      H.expanded = true;
    }
    frames = H.frames; actions = H.actions;
    app.hand = H;  // the hand shown, its data expanded (for a page that embeds this one, and the tests)
    events = handEvents();
    var d = H.diagnostic;
    illegalStep = d && d.action !== null && d.action === frames.length - 1 ? frames.length : null;
    offender = illegalStep !== null ? actions[d.action] : null;
    last = illegalStep !== null ? illegalStep : frames.length - 1;
    if ($("hand")) $("hand").value = String(handNo);
    $("slider").max = last;
    idx = Math.min(idx, last);
  }

  function buildHeader() {
    $("title").textContent = H.title;
    document.title = H.title + " · " + t("page");
    var meta = $("meta");
    meta.textContent = "";
    H.tags.forEach(function (kv) {
      if (kv[0] === "Event") return;
      var s = el("span");
      s.appendChild(el("b", "", Object.prototype.hasOwnProperty.call(t("tags"), kv[0]) ? t("tags")[kv[0]] : kv[0]));
      s.appendChild(document.createTextNode(" " + kv[1]));
      meta.appendChild(s);
    });
    var sel = $("view");
    sel.options[0].textContent = t("view0");
    for (var s = 1; s <= 6; s++) sel.options[s].textContent = s + " · " + H.players[s - 1];
    sel.value = String(view);
    seatBoxes.forEach(function (box, k) {
      var name = box.querySelector(".name");
      name.textContent = name.title = H.players[k];  // a long name is cut with …; the whole is its tooltip
    });
    $("ruleset").textContent = H.ruleset.name + " · " + H.ruleset.titles[lang];
    buildOrder();
    buildBanner();
  }

  function buildBanner() {
    var b = $("banner"), d = H.diagnostic, side = $("diagnostic");
    b.textContent = "";
    side.textContent = "";
    b.hidden = side.hidden = !d;
    if (!d) return;
    b.appendChild(el("strong", "", t("illegal") + " "));
    b.appendChild(document.createTextNode(
      (d.action !== null ? fmt(t("banner"), { n: d.action + 1 }) : t("bannerEnd")) + " [" + d.code + "] " + d.text[lang]));
    var go_ = el("button", "jump", t("jump"));
    go_.type = "button";
    go_.addEventListener("click", function () { go(last); });
    b.appendChild(go_);
    side.appendChild(el("h2", "", t("illegal") + " · " + d.code));
    side.appendChild(el("p", "", d.text[lang]));
    side.appendChild(el("p", "rule", t("rule") + ": " + d.rule[lang] + " — " + source(d.source)));
    if (d.where) {  // as gouji validate quotes it: the record's line, a caret under the action
      // the message and rule lines wrap; the quoted line and its caret keep their columns and
      // scroll, opened at the caret so that what it points at is in view
      var pre = el("pre", "");
      pre.appendChild(el("span", "said", d.where.at + ": " + t("error") + "[" + d.code + "]: " + d.text[lang] + "\n"));
      var quote = d.where.excerpt ? el("span", "excerpt", d.where.excerpt + "\n") : null;
      if (quote) pre.appendChild(quote);
      pre.appendChild(el("span", "said", "  " + t("rule") + ": " + d.rule[lang] + " — " + source(d.source)));
      side.appendChild(pre);
      if (quote) {
        var caret = d.where.excerpt.split("\n").pop().indexOf("^"), probe = el("span", "", "0000000000");
        pre.appendChild(probe);
        var w = probe.getBoundingClientRect().width / 10;
        pre.removeChild(probe);
        if (caret > 0) pre.scrollLeft = Math.max(0, caret * w - pre.clientWidth / 3);
      }
    }
  }

  function buildOrder() {  // the little map of the six seats, counterclockwise
    var box = $("order");
    box.textContent = "";
    var s = svg("svg", { viewBox: "-40 -40 80 80", width: "64", height: "64", "aria-hidden": "true" });
    s.appendChild(svg("circle", { cx: 0, cy: 0, r: 25, fill: "none", stroke: "rgba(255,255,255,.45)", "stroke-width": 1.5 }));
    for (var r = 0; r < 6; r++) {  // arrowheads between seats, pointing the way play goes
      var th = (90 - 60 * r - 30) * Math.PI / 180;
      var ang = Math.atan2(-Math.cos(th), Math.sin(th)) * 180 / Math.PI;
      s.appendChild(svg("path", { d: "M -3.5 -3 L 3.5 0 L -3.5 3 Z", fill: "rgba(255,255,255,.8)",
        transform: "translate(" + (25 * Math.cos(th)).toFixed(2) + " " + (25 * Math.sin(th)).toFixed(2) + ") rotate(" + ang.toFixed(1) + ")" }));
    }
    for (var seat = 1; seat <= 6; seat++) {
      var rel = (seat - base() + 6) % 6, a = (90 - 60 * rel) * Math.PI / 180;
      var g = svg("g", { "class": "dot", "data-seat": seat, transform: "translate(" + (25 * Math.cos(a)).toFixed(2) + " " + (25 * Math.sin(a)).toFixed(2) + ")" });
      g.appendChild(svg("circle", { r: 9, fill: team(seat) ? "#c0392b" : "#1f5fa8", stroke: "#fff", "stroke-width": 1.5 }));
      var tx = svg("text", { "text-anchor": "middle", dy: "3.8", fill: "#fff", "font-size": "11", "font-weight": "700" });
      tx.textContent = String(seat);
      g.appendChild(tx);
      s.appendChild(g);
    }
    box.appendChild(s);
    box.appendChild(el("span", "caption", "↺ " + t("order")));
    box.title = t("order");
  }

  function buildActions() {
    var ol = $("actions");
    ol.textContent = "";
    actionItems = [];
    var d = H.diagnostic;
    if (H.comment.length) {
      var pre = el("li", "preface");
      H.comment.forEach(function (c) { pre.appendChild(el("span", "comment", c)); });
      pre.addEventListener("click", function () { go(0); });
      ol.appendChild(pre);
    }
    actions.forEach(function (a, i) {
      var li = el("li");
      li.setAttribute("data-i", i);
      li.appendChild(el("span", "rn", a.lead && a.round ? a.round + "." : ""));
      li.appendChild(el("span", "an", "#" + (i + 1)));  // the action's number, as links and messages count
      li.appendChild(bubble(a.seat));
      var body = el("span", "body");
      if (a.irregular) body.appendChild(el("span", "irr", "^"));
      if (a.kind === "play") {
        if (a.burn) body.appendChild(el("span", "tag burn", t("burn")));
        body.appendChild(el("span", "cards", a.cards));
      } else body.appendChild(el("span", "word " + a.kind + (a.purpose ? " " + a.purpose : ""), actionLabel(a)));
      if (a.glyph) body.appendChild(el("span", "glyph", a.glyph));
      a.nags.forEach(function (n) { body.appendChild(el("span", "nag", "$" + n)); });
      li.appendChild(body);
      var evs = events.filter(function (e) { return e.action === i; });
      evs.forEach(function (e) { li.appendChild(el("span", "ev lane-" + lane(e), glyph(e) || e[lang])); });
      if (d && d.action === i) li.appendChild(el("span", "tag bad", t("illegal")));
      else if (d && d.action !== null && i > d.action) li.appendChild(el("span", "tag muted", t("notReplayed")));
      a.comments.forEach(function (c) { li.appendChild(el("span", "comment", c)); });
      if (d && d.action === i) li.classList.add("illegal");
      if (d && d.action !== null && i > d.action) li.classList.add("unplayed");
      li.addEventListener("click", function () { go(i + 1); });
      ol.appendChild(li);
      actionItems.push(li);
    });
  }

  function buildEvents() {
    var ol = $("events");
    ol.textContent = "";
    eventItems = [];
    events.forEach(function (e) {
      var li = el("li", "lane-" + lane(e));
      li.setAttribute("data-kind", e.kind);
      li.appendChild(el("span", "mk-mini", glyph(e) || "·"));
      li.appendChild(el("span", "at", "#" + (e.action + 1)));
      li.appendChild(el("span", "what", evText(e)));
      li.appendChild(el("span", "cite", e.rule[lang] + " — " + cite(e.source)));
      li.addEventListener("click", function () { go(e.action + 1); });
      ol.appendChild(li);
      eventItems.push(li);
    });
  }

  function pct(i) { return last ? (i / last) * 100 : 0; }

  function buildTimeline() {
    var box = $("timeline");
    box.textContent = "";
    markers = [];
    var groups = {}, used = {};
    events.forEach(function (e) {
      var key = lane(e) + "@" + e.action;
      if (!groups[key]) { groups[key] = []; used[lane(e)] = true; }
      groups[key].push(e);
    });
    var d = H.diagnostic;
    var lanes = LANES.filter(function (l) { return used[l]; });
    if (illegalStep !== null) lanes.push("illegal");
    var rows = el("div", "lanes");
    lanes.forEach(function (ln) {
      var row = el("div", "lane lane-" + ln);
      row.appendChild(el("span", "lane-label", t("lanes")[ln]));
      var track = el("div", "track");
      track.addEventListener("click", function (ev) {
        if (ev.target !== track) return;
        var r = track.getBoundingClientRect();
        go(Math.round((ev.clientX - r.left) / r.width * last));
      });
      if (ln === "illegal") {
        var m = el("button", "mk bad", "✗");
        m.type = "button";
        m.style.left = pct(illegalStep) + "%";
        m.setAttribute("data-kinds", "illegal");
        m.setAttribute("data-action", d.action);
        attachTip(m, [t("illegal") + " [" + d.code + "] " + d.text[lang], t("rule") + ": " + d.rule[lang],
          t("source") + ": " + source(d.source)]);
        m.addEventListener("click", function () { go(illegalStep); });
        track.appendChild(m);
        markers.push(m);
      }
      Object.keys(groups).forEach(function (key) {
        var evs = groups[key];
        if (lane(evs[0]) !== ln) return;
        var at = evs[0].action;
        var mk = el("button", "mk lane-" + ln, glyph(evs[0]));
        mk.type = "button";
        mk.style.left = pct(at + 1) + "%";
        mk.setAttribute("data-kinds", evs.map(function (e) { return e.kind; }).join(" "));
        mk.setAttribute("data-action", at);
        attachTip(mk, tipLines(evs));
        mk.addEventListener("click", function () { go(at + 1); });
        track.appendChild(mk);
        markers.push(mk);
      });
      track.appendChild(el("div", "cursor"));
      row.appendChild(track);
      rows.appendChild(row);
    });
    box.appendChild(rows);
    layoutMarkers();
  }

  // Markers closer than a marker's width on one lane go to rows of their own, so that every marker
  // can be seen and clicked (a lane grows a row for each): greedy, in the order of the hand.
  function layoutMarkers() {
    var tracks = document.querySelectorAll("#timeline .track");
    for (var i = 0; i < tracks.length; i++) {
      var track = tracks[i], width = track.getBoundingClientRect().width;
      var mks = Array.prototype.slice.call(track.querySelectorAll(".mk"));
      if (!mks.length || !width) continue;
      var size = mks[0].getBoundingClientRect().width + 3, ends = [], rowOf = [];
      mks.sort(function (a, b) { return parseFloat(a.style.left) - parseFloat(b.style.left); });
      mks.forEach(function (m) {
        var x = parseFloat(m.style.left) / 100 * width, r = 0;
        while (r < ends.length && x - ends[r] < size) r++;
        ends[r] = x;
        rowOf.push(r);
      });
      var rowH = size + 1, lane = track.parentNode;
      lane.style.height = Math.max(1, ends.length) * rowH + "px";
      mks.forEach(function (m, k) { m.style.top = (rowOf[k] + 0.5) * rowH + "px"; });
    }
  }

  function buildChart() {
    var box = $("chart");
    box.textContent = "";
    // drawn at the width it is shown (labels keep 11 px on a phone), at least 300 units wide
    var W = Math.max(300, Math.min(1000, Math.round(box.clientWidth) || 640)), Hh = 180, pl = 30, pr = 10, pt = 10, pb = 22;
    var max = 0;
    frames[0].counts.forEach(function (c) { max = Math.max(max, c); });
    max = Math.max(max, 1);
    function x(i) { return pl + (W - pl - pr) * (last ? i / last : 0); }
    function y(n) { return pt + (Hh - pt - pb) * (1 - n / max); }
    var s = svg("svg", { viewBox: "0 0 " + W + " " + Hh, "class": "chart", role: "img" });
    s.appendChild(svg("rect", { x: pl, y: pt, width: W - pl - pr, height: Hh - pt - pb, fill: "#fbf8f0" }));
    for (var g = 0; g <= max; g += 10) {
      s.appendChild(svg("line", { x1: pl, x2: W - pr, y1: y(g), y2: y(g), stroke: "#e4dccb", "stroke-width": 1 }));
      var lab = svg("text", { x: pl - 5, y: y(g) + 4, "text-anchor": "end", "font-size": 11, fill: "#777" });
      lab.textContent = String(g);
      s.appendChild(lab);
    }
    if (max > 10) {
      s.appendChild(svg("line", { x1: pl, x2: W - pr, y1: y(10), y2: y(10), stroke: "#b04500", "stroke-dasharray": "4 3", "stroke-width": 1 }));
      var rl = svg("text", { x: W - pr - 2, y: y(10) - 3, "text-anchor": "end", "font-size": 10, fill: "#b04500" });
      rl.textContent = t("reportLine") + " ≤ 10";
      s.appendChild(rl);
    }
    var xl = svg("text", { x: W - pr, y: Hh - 5, "text-anchor": "end", "font-size": 11, fill: "#777" });
    xl.textContent = last + " " + t("chartAxis");
    s.appendChild(xl);
    for (var k = 0; k < 6; k++) {
      var pts = [], prev = frames[0].counts[k];
      pts.push(x(0) + "," + y(prev));
      for (var i = 1; i < frames.length; i++) {
        var c = frames[i].counts[k];
        if (c !== prev) { pts.push(x(i) + "," + y(prev)); pts.push(x(i) + "," + y(c)); prev = c; }
      }
      pts.push(x(frames.length - 1) + "," + y(prev));
      s.appendChild(svg("polyline", { points: pts.join(" "), fill: "none", stroke: SEAT_COLOURS[k],
        "stroke-width": 2.2, "stroke-linejoin": "round", "class": "line", "data-seat": k + 1, opacity: 0.9 }));
    }
    events.forEach(function (e) {
      var f = e.action + 1;
      if (f >= frames.length || lane(e) === "gouji" || e.review) return;
      var seat = e.seats[0] || 1;
      var dot = svg("circle", { cx: x(f), cy: y(frames[f].counts[seat - 1]), r: 5, "class": "ev lane-" + lane(e),
        "data-kind": e.kind, tabindex: "-1" });
      attachTip(dot, tipLines([e]));
      dot.addEventListener("click", function (ev) { ev.stopPropagation(); go(f); });
      s.appendChild(dot);
    });
    if (illegalStep !== null) {
      var bx = x(illegalStep);
      s.appendChild(svg("path", { d: "M" + (bx - 5) + " " + (pt + 2) + " l10 10 m0 -10 l-10 10", stroke: "#c0392b", "stroke-width": 2.5 }));
    }
    var future = svg("rect", { x: x(0), y: pt, width: 0, height: Hh - pt - pb, fill: "rgba(251,248,240,.72)", "pointer-events": "none" });
    var cursor = svg("line", { x1: 0, x2: 0, y1: pt, y2: Hh - pb, stroke: "#222", "stroke-width": 1.5, "pointer-events": "none" });
    s.appendChild(future);
    s.appendChild(cursor);
    s.addEventListener("click", function (ev) {
      var r = s.getBoundingClientRect(), px = (ev.clientX - r.left) / r.width * W;
      go(Math.round((px - pl) / (W - pl - pr) * last));
    });
    box.appendChild(s);
    var legend = el("div", "legend");
    for (var q = 1; q <= 6; q++) {
      var item = el("span", "item");
      var sw = el("span", "swatch");
      sw.style.background = SEAT_COLOURS[q - 1];
      item.appendChild(sw);
      item.appendChild(document.createTextNode(q + " " + H.players[q - 1]));
      legend.appendChild(item);
    }
    box.appendChild(legend);
    chartParts = { x: x, W: W, pr: pr, future: future, cursor: cursor };
  }

  function buildAll() {
    document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
    $("lang").textContent = lang === "zh" ? "English" : "中文";
    $("lang").setAttribute("lang", lang === "zh" ? "en" : "zh-Hans");
    var nodes = document.querySelectorAll("[data-zh]");
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = nodes[i].getAttribute("data-" + lang);
    var named = document.querySelectorAll("[data-zh-label]");  // accessible names, and tooltips where there is one
    for (var j = 0; j < named.length; j++) {
      var label = named[j].getAttribute("data-" + lang + "-label");
      named[j].setAttribute("aria-label", label);
      if (named[j].hasAttribute("title")) named[j].title = label;
    }
    var holders = document.querySelectorAll("[data-zh-placeholder]");
    for (var h = 0; h < holders.length; h++) holders[h].placeholder = holders[h].getAttribute("data-" + lang + "-placeholder");
    app.setAttribute("data-lang", lang);
    if ($("hand-find")) findHands();
    buildHeader();
    buildActions();
    buildEvents();
    buildTimeline();
    buildChart();
    buildKinds();
    buildHelp();
    $("copy").textContent = t("copy");
  }

  /* ---------- showing one step ---------- */
  function base() { return view || 1; }

  function placeOf(seat, f) {
    var i = f.places.indexOf(seat);
    if (i >= 0 && (f.over || f.finished.indexOf(seat) >= 0 || f.revolted.indexOf(seat) >= 0)) return i + 1;
    var o = f.out.indexOf(seat);
    return o >= 0 ? 6 - o : 0;
  }

  function showSeat(seat, f, atIllegal) {
    var box = seatBoxes[seat - 1], k = seat - 1, n = f.counts[k];
    box.style.gridArea = "p" + ((seat - base() + 6) % 6);
    var count = box.querySelector(".count");
    count.setAttribute("data-count", n);
    count.textContent = n > 0 && n <= 10 ? fmt(t("report"), { n: n }) : fmt(t("cards"), { n: n });
    count.className = "count" + (n > 0 && n <= 10 ? " report" : "");
    var gone = f.finished.indexOf(seat) >= 0 || f.out.indexOf(seat) >= 0 || f.revolted.indexOf(seat) >= 0;
    var pre = preplayNext(idx), actor = pre ? pre.seat : f.toAct;  // before play: the seat giving, showing …
    box.classList.toggle("to-act", !atIllegal && actor === seat);
    box.classList.toggle("offender", atIllegal && offender.seat === seat);
    box.classList.toggle("done", gone);
    box.classList.toggle("mine", view === seat);
    var badges = box.querySelector(".badges");
    badges.textContent = "";
    var place = placeOf(seat, f);
    if (place) badges.appendChild(el("span", "b place p" + place, placeName(place)));
    if (!atIllegal && actor === seat) badges.appendChild(el("span", "b act", t(pre && pre.kind === "give" ? "toGive" : "toAct")));
    if (atIllegal && offender.seat === seat) badges.appendChild(el("span", "b bad", t("illegal")));
    if (f.revolted.indexOf(seat) >= 0) badges.appendChild(el("span", "b revolt", t("revolted")));
    if (f.out.indexOf(seat) >= 0) badges.appendChild(el("span", "b out", t("out")));
    if (f.opened.indexOf(seat) >= 0) badges.appendChild(el("span", "b open", t("opened")));
    if (f.headless.indexOf(seat) >= 0) badges.appendChild(el("span", "b headless", t("headless")));
    if (f.burner === seat) badges.appendChild(el("span", "b burn", fmt(t("burning"), { s: f.burnTarget })));
    if (f.burnTarget === seat && f.burner) badges.appendChild(el("span", "b burned", t("burned")));
    var hand = box.querySelector(".hand");
    hand.textContent = "";
    if (view === 0 || view === seat) cardRow(f.hands[k], hand, "", f.unknown[k]);
    else if (n) {
      var back = el("span", "card back", fmt(t("hiddenHand"), { n: n }));
      back.setAttribute("data-n", n);
      hand.appendChild(back);
    }
    var said = box.querySelector(".said");
    said.textContent = "";
    var trick = f.trick.slice();
    if (atIllegal) trick.push(H.diagnostic.action);
    for (var j = trick.length - 1; j >= 0; j--) {
      var i = trick[j], a = actions[i];
      if (a.seat !== seat) continue;
      var cls = "bubble" + (i === idx - 1 || (atIllegal && i === H.diagnostic.action) ? " latest" : "") +
        (atIllegal && i === H.diagnostic.action ? " bad" : "");
      var b = el("span", cls);
      if (a.kind === "play") {
        if (a.burn) b.appendChild(el("span", "tag burn", t("burn")));
        b.appendChild(fan(a.cards, "mini"));
      } else { b.textContent = actionLabel(a); b.className += " quiet"; }
      said.appendChild(b);
      break;
    }
  }

  function showCentre(f, atIllegal) {
    var first = f.trick.length ? actions[f.trick[0]] : null;
    var round = $("round");
    if (idx === 0) round.textContent = t("deal");
    else if (first && first.preplay) round.textContent = phaseName(preplayNext(idx) || actions[idx - 1]);
    else round.textContent = fmt(t("round"), { n: (first && first.round) || f.round }) +
      (first ? " · " + fmt(t("led"), { s: first.seat }) : "");
    var status = $("status");
    status.textContent = "";
    function chip(cls, text) { status.appendChild(el("span", "chip " + cls, text)); }
    if (f.void) chip("void", t("void"));
    else if (f.over) chip("over", t("over"));
    if (f.melee && !f.over) chip("melee", t("melee"));
    if (f.burner) chip("burn", f.burner + " " + t("burn") + " " + f.burnTarget);
    if (f.top && f.top.unbeatable) chip("dead", t("dead"));
    else if (f.top && f.top.burnOnly) chip("dead", t("burnOnly"));
    else if (f.top && f.top.gouji && !f.melee) chip("gouji", fmt(t("gouji"), { s: (f.top.seat + 2) % 6 + 1 }));
    if (!f.top && idx > 0 && !f.over && f.toAct && first && !first.preplay) chip("won", fmt(t("roundOver"), { s: f.toAct }));

    var top = $("top");
    top.textContent = "";
    if (f.top) {
      top.setAttribute("data-seat", f.top.seat);
      top.setAttribute("data-cards", f.top.cards);
      top.appendChild(topWho(f.top.seat));
      top.appendChild(fan(f.top.cards, "large"));
    } else {
      top.removeAttribute("data-seat");
      top.removeAttribute("data-cards");
      var won = null;  // the round is over: its winning play stays on the table, faded
      for (var w = f.trick.length - 1; w >= 0 && !atIllegal; w--) if (actions[f.trick[w]].kind === "play") { won = actions[f.trick[w]]; break; }
      if (won) {
        top.appendChild(topWho(won.seat));
        var wf = fan(won.cards, "large");
        wf.className += " won" + (f.over ? " ends" : "");  // the play that ends the hand stays bright
        top.appendChild(wf);
      }
    }

    var trick = $("trick");
    trick.textContent = "";
    var list = f.trick.slice();
    if (atIllegal) list.push(H.diagnostic.action);
    list.forEach(function (i) {
      var a = actions[i];
      var li = el("li", (i === idx - 1 ? "current" : "") + (atIllegal && i === H.diagnostic.action ? " bad" : "") +
        (f.top && f.top.action === i ? " topplay" : ""));
      li.setAttribute("data-i", i);
      li.appendChild(bubble(a.seat));
      if (a.kind === "play") li.appendChild(el("span", "", (a.burn ? t("burn") + " " : "") + a.cards));
      else li.appendChild(el("span", "quiet", actionLabel(a)));
      if (a.glyph) li.appendChild(el("span", "glyph", a.glyph));
      li.addEventListener("click", function () { go(i + 1); });
      trick.appendChild(li);
    });
    if (trick.lastChild) trick.scrollTop = trick.scrollHeight;

    var happened = $("happened");
    happened.textContent = "";
    if (atIllegal) {
      var d = H.diagnostic, box = el("div", "diag");
      box.appendChild(el("strong", "", t("illegal") + " [" + d.code + "]"));
      box.appendChild(el("div", "", d.text[lang]));
      box.appendChild(el("div", "cite", d.rule[lang] + " — " + source(d.source)));
      happened.appendChild(box);
    }
    events.forEach(function (e) {
      if (e.action !== idx - 1 || atIllegal) return;
      var row = el("div", "happen lane-" + lane(e));
      row.appendChild(el("span", "mk-mini", glyph(e) || "·"));
      row.appendChild(el("span", "what", evText(e)));
      row.appendChild(el("span", "cite", e.rule[lang] + " · " + cite(e.source)));
      happened.appendChild(row);
    });

    var fin = $("final");
    var showFinal = idx === last && !!H.places && !atIllegal;
    fin.hidden = !showFinal;
    $("centre").classList.toggle("ended", showFinal);  // the places first: the centre may scroll below them
    $("centre").scrollTop = 0;
    trick.hidden = showFinal;
    if (showFinal) buildFinal(fin);
    var dots = document.querySelectorAll("#order .dot"), nextPre = preplayNext(idx);
    for (var q = 0; q < dots.length; q++)
      dots[q].classList.toggle("on", +dots[q].getAttribute("data-seat") === (atIllegal ? offender.seat : nextPre ? nextPre.seat : f.toAct));
  }

  function topWho(seat) {
    var who = el("div", "top-who");
    who.appendChild(bubble(seat));
    var name = el("span", "pname", H.players[seat - 1]);
    name.title = H.players[seat - 1];
    who.appendChild(name);
    return who;
  }

  function buildFinal(box) {
    box.textContent = "";
    var ol = el("ol", "places");
    H.places.forEach(function (seat, i) {
      var li = el("li", "team" + team(seat));
      li.appendChild(el("span", "pn p" + (i + 1), placeName(i + 1)));
      li.appendChild(bubble(seat));
      var pname = el("span", "pname", H.players[seat - 1]);
      pname.title = H.players[seat - 1];
      li.appendChild(pname);
      ol.appendChild(li);
    });
    box.appendChild(ol);
    if (H.scores) {
      var sc = el("div", "scores");
      sc.appendChild(el("span", "team1", t("team1") + " " + H.scores["1"]));
      sc.appendChild(el("span", "team0", t("team0") + " " + H.scores["0"]));
      box.appendChild(sc);
    }
    if (H.standings) {  // the match so far (累计), from the match's verdict; the match's result after its last hand
      var next = page.hands[handNo + 1], ends = !next || next.match !== H.match;
      var st = el("div", "standings" + (ends ? " match-over" : ""));
      st.appendChild(el("span", "", t(ends ? "matchOver" : "standings") + ": "));
      st.appendChild(el("span", "team1" + (H.standings[0] > H.standings[1] ? " lead" : ""), t("team1") + " " + H.standings[0]));
      st.appendChild(el("span", "team0" + (H.standings[1] > H.standings[0] ? " lead" : ""), t("team0") + " " + H.standings[1]));
      box.appendChild(st);
    }
    var ex = Object.keys(H.extras);
    if (ex.length) {
      var e = el("div", "extras", t("extras") + ": ");
      ex.forEach(function (s) {
        var v = H.extras[s];
        e.appendChild(el("span", "", seatName(s) + " " + (v > 0 ? "+" : "") + v));
      });
      box.appendChild(e);
    }
  }

  function show() {
    var f = frameAt(idx), atIllegal = illegalStep !== null && idx === illegalStep;
    app.setAttribute("data-step", idx);
    app.classList.toggle("at-illegal", atIllegal);
    $("pos").textContent = idx + " / " + last;
    $("slider").value = idx;
    $("first").disabled = $("prev").disabled = idx <= 0;  // the ends: nothing further that way
    $("next").disabled = $("last").disabled = idx >= last;
    var what = stepWords(atIllegal);
    $("slider").setAttribute("aria-valuetext", fmt(t("valueText"), { i: idx, n: last, what: what }));
    announce(idx ? fmt(t("said"), { n: idx, what: what }) +
      events.filter(function (e) { return e.action === idx - 1 && !atIllegal; }).map(function (e) { return (lang === "zh" ? "。" : ". ") + evText(e); }).join("") : what);
    for (var s = 1; s <= 6; s++) { showSeat(s, f, atIllegal); showHistory(s); }
    showCentre(f, atIllegal);
    var cur = null;
    actionItems.forEach(function (li, i) {
      var on = i === idx - 1;
      li.classList.toggle("current", on);
      li.classList.toggle("done", i < idx);
      if (on) cur = li;
    });
    var rows = document.querySelectorAll("#overview tr[data-hand]");
    for (var r = 0; r < rows.length; r++) rows[r].classList.toggle("current", +rows[r].getAttribute("data-hand") === handNo);
    if (cur) keepVisible(cur);
    else if (idx === 0) $("actions").scrollTop = 0;
    var nextEv = null;
    eventItems.forEach(function (li, i) {
      var a = events[i].action;
      li.classList.toggle("past", a < idx);
      li.classList.toggle("now", a === idx - 1);
      if (nextEv === null && a >= idx - 1) nextEv = li;
    });
    if (nextEv) keepVisible(nextEv);
    markers.forEach(function (m) {
      var a = +m.getAttribute("data-action");
      m.classList.toggle("past", a < idx);
      m.classList.toggle("now", a === idx - 1);
    });
    var cursors = document.querySelectorAll("#timeline .cursor");
    for (var c = 0; c < cursors.length; c++) cursors[c].style.left = pct(idx) + "%";
    if (chartParts) {
      var cx = chartParts.x(idx);
      chartParts.cursor.setAttribute("x1", cx);
      chartParts.cursor.setAttribute("x2", cx);
      chartParts.future.setAttribute("x", cx);
      chartParts.future.setAttribute("width", Math.max(0, chartParts.W - chartParts.pr - cx));
    }
    if (tipNode && !tip.hidden) placeTip(tipNode);  // the step moved its marker
    writeHash();
  }

  function stepWords(atIllegal) {  // the action stepped to, in words (what the slider and the live region say)
    if (idx === 0) return t("dealt");
    if (atIllegal) { var d = H.diagnostic; return said(d.action) + " · " + t("illegal") + " [" + d.code + "] " + d.text[lang]; }
    return said(idx - 1);
  }
  var announced = null;
  function announce(text) {  // the live region (role=status): said once per step, not again for the same step
    var key = handNo + ":" + idx + ":" + lang;
    if (announced === key) return;
    announced = key;
    $("announce").textContent = text;
  }

  function keepVisible(li) {  // scroll the list only, never the page
    var box = li.parentNode;
    if (box.scrollHeight <= box.clientHeight) return;
    if (li.offsetTop < box.scrollTop) box.scrollTop = li.offsetTop;
    else if (li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = li.offsetTop + li.offsetHeight - box.clientHeight;
  }

  /* ---------- navigation ---------- */
  // Any number, however large or malformed, lands inside [lo, hi]: NaN gives lo, fractions round down.
  // (Never `x | 0`: it wraps 2147483648 to a negative and 4294967295 to -1.)
  function clamp(x, lo, hi) {
    x = Math.floor(Number(x));
    return x !== x ? lo : Math.max(lo, Math.min(hi, x));
  }
  function go(i) {
    idx = clamp(i, 0, last);
    show();
    if (timer && idx >= last && handNo >= page.hands.length - 1) autoplay(false);
  }
  function step() {  // autoplay's tick: the next action, or at a hand's end the next hand of the page
    if (idx < last) go(idx + 1);
    else if (handNo < page.hands.length - 1) { idx = 0; loadHand(handNo + 1); buildAll(); go(0); }
    else autoplay(false);
  }
  function otherHand(d) {  // [ and ]: the hand before or after, at its deal
    var n = handNo + d;
    if (n < 0 || n >= page.hands.length) return;
    idx = 0; loadHand(n); buildAll(); go(0);
  }
  function eventSteps() {
    var kind = $("event-kind") ? $("event-kind").value : "";
    var steps = events.filter(function (e) { return !kind || e.kind === kind; }).map(function (e) { return e.action + 1; });
    if (illegalStep !== null && (!kind || kind === "illegal")) steps.push(illegalStep);
    return steps.sort(function (a, b) { return a - b; });
  }
  function roundSteps() {  // the step after each round's lead
    var out = [];
    actions.forEach(function (a, i) { if (a.lead && i + 1 <= last) out.push(i + 1); });
    return out;
  }
  function nextRound() {
    var s = roundSteps().filter(function (x) { return x > idx; });
    go(s.length ? s[0] : last);
  }
  function prevRound() {
    var s = roundSteps().filter(function (x) { return x < idx; });
    go(s.length ? s[s.length - 1] : 0);
  }
  function buildKinds() {  // the kinds of event of this hand, to step through one kind
    var sel = $("event-kind"), was = sel.value;
    sel.textContent = "";
    var all = el("option", "", t("allEvents"));
    all.value = "";
    sel.appendChild(all);
    var seen = {};
    events.forEach(function (e) {
      if (seen[e.kind]) return;
      seen[e.kind] = true;
      var o = el("option", "", (glyph(e) ? glyph(e) + " " : "") + e[lang]);
      o.value = e.kind;
      sel.appendChild(o);
    });
    if (illegalStep !== null) { var bad = el("option", "", "✗ " + t("illegal")); bad.value = "illegal"; sel.appendChild(bad); }
    sel.value = seen[was] || (was === "illegal" && illegalStep !== null) ? was : "";
  }
  function buildHelp() {
    var box = $("help");
    box.textContent = "";
    var panel = el("div", "help-panel"), head = el("div", "help-head");
    head.appendChild(el("h2", "", t("help")));
    var close = el("button", "help-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", t("close"));
    head.appendChild(close);
    panel.appendChild(head);
    var dl = el("dl");
    t("helpKeys").forEach(function (kv) { dl.appendChild(el("dt", "", kv[0])); dl.appendChild(el("dd", "", kv[1])); });
    panel.appendChild(dl);
    box.appendChild(panel);
  }
  var helpFrom = null;  // what had the focus before the dialog took it
  function toggleHelp(on) {
    var box = $("help");
    if (on === undefined) on = box.hidden;
    if (on === !box.hidden) return;
    box.hidden = !on;
    if (on) { helpFrom = document.activeElement; box.querySelector("button").focus(); }
    else if (helpFrom && helpFrom.focus) { helpFrom.focus({ preventScroll: true }); helpFrom = null; }
  }
  function showHistory(seat) {  // the seat's own plays up to this step, in a list under its name
    var box = seatBoxes[seat - 1], list = box.querySelector(".history");
    if (!list) return;
    list.textContent = "";
    if (!box.classList.contains("show-history")) return;
    list.appendChild(el("div", "history-head", fmt(t("history"), { s: seat })));
    var any = false;
    for (var i = 0; i < Math.min(idx, actions.length); i++) {
      var a = actions[i];
      if (a.seat !== seat || a.kind !== "play") continue;
      any = true;
      var item = el("button", "past-play", (a.round ? a.round + ". " : "") + (a.burn ? t("burn") + " " : "") + a.cards);
      item.type = "button";
      item.setAttribute("data-i", i);
      item.addEventListener("click", (function (k) { return function (ev) { ev.stopPropagation(); go(k + 1); }; })(i));
      list.appendChild(item);
    }
    if (!any) list.appendChild(el("span", "quiet", t("noPlays")));
  }
  // Copies the address; when the clipboard refuses (a sandboxed frame, no permission) the button
  // says so and the link is shown, selected, to copy by hand.
  var copyTimer = null;
  function copyLink() {
    var b = $("copy"), url = location.href, box = $("link");
    function say(key) {
      b.textContent = t(key);
      clearTimeout(copyTimer);
      copyTimer = setTimeout(function () { b.textContent = t("copy"); }, 2500);
    }
    function done() { say("copied"); box.hidden = true; }
    function failed() { say("copyFailed"); box.value = url; box.hidden = false; box.focus(); box.select(); }
    b.setAttribute("data-url", url);
    try { navigator.clipboard.writeText(url).then(done, failed); } catch (e) { failed(); }
  }
  function nextEvent() {
    var s = eventSteps().filter(function (x) { return x > idx; });
    if (s.length) go(s[0]);
  }
  function prevEvent() {
    var s = eventSteps().filter(function (x) { return x < idx; });
    if (s.length) go(s[s.length - 1]);
  }
  function autoplay(on) {
    if (on === undefined) on = !timer;
    if (timer) clearInterval(timer);
    timer = null;
    if (on) {
      if (idx >= last) go(0);
      timer = setInterval(step, 1000 / speed);
    }
    app.classList.toggle("playing", !!timer);
    $("play").setAttribute("aria-pressed", timer ? "true" : "false");
  }
  function hashString() {  // #h=2&a=21&lang=en&seat=3: language and seat view only when not the page's own
    return "#" + (page.hands.length > 1 ? "h=" + (handNo + 1) + "&" : "") + "a=" + idx +
      (lang !== pageLang ? "&lang=" + lang : "") + (view !== pageView ? "&seat=" + view : "");
  }
  function writeHash() {
    var h = hashString();
    if (location.hash === h) return;
    try { history.replaceState(null, "", h); } catch (e) { /* a sandboxed frame: no deep link */ }
  }
  // The address's numbers: #h= (1 is the first hand) and #a= (the action), each a whole number,
  // clamped into range (a huge one: the last; 0 or negative: the first). A value that is not one
  // (#a=abc, #a=1e3, #a=0x10, #a=) counts as absent: the page stays where it is (opens at 0).
  function hashNumber(h, key) {
    var m = new RegExp("[#&]" + key + "=([^&]*)").exec(h);
    return m && /^[-+]?\d+$/.test(m[1]) ? Number(m[1]) : null;
  }
  function readHash() {
    var h = location.hash || "", hand = hashNumber(h, "h"), seat = hashNumber(h, "seat");
    var l = /[#&]lang=(zh|en)(?:&|$)/.exec(h);
    return { hand: hand !== null ? clamp(hand - 1, 0, page.hands.length - 1) : null, step: hashNumber(h, "a"),
      lang: l ? l[1] : null, seat: seat !== null ? clamp(seat, 0, 6) : null };
  }
  function applyHash() {
    var r = readHash();
    if (r.lang !== null && r.lang !== lang) { lang = r.lang; buildAll(); }
    if (r.seat !== null && r.seat !== view) setView(r.seat);
    if (r.hand !== null && r.hand !== handNo) {
      idx = 0;
      loadHand(r.hand);
      buildAll();
    }
    go(r.step !== null ? r.step : idx);  // go shows the step and writes the address back, clamped
  }

  function setLang(l) { lang = l; buildAll(); show(); }
  function setView(v) { view = v; $("view").value = String(v); app.setAttribute("data-view", v);
    var reviewed = (H.review && H.review.length) || Object.keys(H.reviewViews || {}).length;
    if (reviewed) { events = handEvents(); buildAll(); } else buildOrder();  // the findings shown depend on the view
    show();
  }

  for (var s = 1; s <= 6; s++) seatBoxes.push($("seat" + s));
  $("slider").addEventListener("input", function (e) { go(+e.target.value); });
  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(idx - 1); });
  $("next").addEventListener("click", function () { go(idx + 1); });
  $("last").addEventListener("click", function () { go(last); });
  $("play").addEventListener("click", function () { autoplay(); });
  $("next-event").addEventListener("click", nextEvent);
  $("event-kind").addEventListener("change", function () { app.focus({ preventScroll: true }); });
  $("copy").addEventListener("click", copyLink);
  $("help-btn").addEventListener("click", function () { toggleHelp(); });
  $("help").addEventListener("click", function (e) {  // outside the panel, or its close button
    if (!e.target.closest(".help-panel") || e.target.closest(".help-close")) toggleHelp(false);
  });
  seatBoxes.forEach(function (box, k) {  // a seat's name shows its plays so far
    box.querySelector(".who").addEventListener("click", function () {
      box.classList.toggle("show-history");
      showHistory(k + 1);
    });
  });
  (function () {  // the wheel over the table steps when its switch is on (else it scrolls the page); a horizontal swipe steps
    var table = $("table"), wheelAt = 0, touch = null;
    $("wheel").addEventListener("change", function () { app.focus({ preventScroll: true }); });
    table.addEventListener("wheel", function (e) {
      if (!$("wheel").checked || Math.abs(e.deltaY) < Math.abs(e.deltaX) || !e.deltaY) return;
      e.preventDefault();
      var now = Date.now();
      if (now - wheelAt < 60) return;  // one step per notch, not per pixel of a touchpad
      wheelAt = now;
      go(idx + (e.deltaY > 0 ? 1 : -1));
    }, { passive: false });
    table.addEventListener("touchstart", function (e) {
      if (e.touches.length === 1) touch = { x: e.touches[0].clientX, y: e.touches[0].clientY };
    }, { passive: true });
    table.addEventListener("touchend", function (e) {
      if (!touch || !e.changedTouches.length) return;
      var dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
      touch = null;
      if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) go(idx + (dx < 0 ? 1 : -1));
    }, { passive: true });
  })();
  $("prev-event").addEventListener("click", prevEvent);
  $("speed").addEventListener("change", function (e) {
    speed = +e.target.value || 1;
    if (timer) autoplay(true);
    app.focus({ preventScroll: true });
  });
  $("lang").addEventListener("click", function () { setLang(lang === "zh" ? "en" : "zh"); });
  $("view").addEventListener("change", function (e) { setView(+e.target.value); app.focus({ preventScroll: true }); });
  function openHand(n) { autoplay(false); idx = 0; loadHand(n); buildAll(); go(0); }
  if ($("hand")) $("hand").addEventListener("change", function (e) {
    openHand(+e.target.value);
    app.focus({ preventScroll: true });
  });
  // The hand picker's finder: the hands that match every word typed (a number: the hand's number;
  // other words: part of its event or of a player's name); Enter opens the first.
  if ($("hand-find")) {
    $("hand-find").addEventListener("input", findHands);
    $("hand-find").addEventListener("keydown", function (e) {
      if (e.key !== "Enter") return;
      var first = findHands();
      if (first !== null) { openHand(first); app.focus({ preventScroll: true }); }
    });
  }
  function findHands() {
    var words = $("hand-find").value.toLowerCase().split(/\s+/).filter(Boolean), first = null, count = 0;
    var options = $("hand").options;
    for (var i = 0; i < options.length; i++) {
      var text = options[i].getAttribute("data-find").toLowerCase();
      var number = text.split(" ")[0];
      var hit = words.every(function (w) { return /^\d+$/.test(w) ? number === w : text.indexOf(w) >= 0; });  // a number: the hand's
      options[i].hidden = !hit;
      if (hit) { count++; if (first === null) first = i; }
    }
    $("hand-found").textContent = words.length ? fmt(t("found"), { n: count }) : "";
    return first;
  }
  // The page's root takes focus on a click (not from form controls), so the keys work when embedded.
  app.addEventListener("click", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag !== "SELECT" && tag !== "OPTION" && tag !== "INPUT" && $("help").hidden && !e.target.closest("#copy"))
      app.focus({ preventScroll: true });
  });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (!$("help").hidden) {  // the dialog holds the focus: Escape or ? closes it, Tab stays in it
      if (e.key === "Escape" || e.key === "?") { toggleHelp(false); e.preventDefault(); }
      else if (e.key === "Tab") { $("help").querySelector("button").focus(); e.preventDefault(); }
      return;
    }
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
    if (tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
    var k = e.key, done = true;
    if (k === "ArrowRight") go(idx + 1);
    else if (k === "ArrowLeft") go(idx - 1);
    else if (k === "Home") go(0);
    else if (k === "End") go(last);
    else if (k === " " || k === "Spacebar") autoplay();
    else if (k === "n" || k === "N") nextEvent();
    else if (k === "p" || k === "P") prevEvent();
    else if (k === "ArrowDown") nextRound();
    else if (k === "ArrowUp") prevRound();
    else if (k === "?") toggleHelp();
    else if (k === "]") otherHand(1);
    else if (k === "[") otherHand(-1);
    else done = false;
    if (done) e.preventDefault();
  });
  window.addEventListener("hashchange", applyHash);
  window.addEventListener("scroll", scrolled, { passive: true });
  var resizing = null;
  window.addEventListener("resize", function () {  // markers and chart follow the width
    clearTimeout(resizing);
    resizing = setTimeout(function () { layoutMarkers(); buildChart(); show(); }, 120);
  });

  if (page.source && $("download")) {  // the record itself, as a download (a data: address: the page stays one file)
    $("download").href = "data:text/plain;charset=utf-8," + encodeURIComponent(page.source.text);
    $("download").setAttribute("download", page.source.name);
    $("download").hidden = false;
  }
  var start = readHash();
  if (start.lang !== null) lang = start.lang;
  if (start.seat !== null) view = start.seat;
  loadHand(start.hand !== null ? start.hand : 0);
  $("view").value = String(view);
  app.setAttribute("data-view", view);
  if ($("overview") && window.innerWidth < 640) $("overview").removeAttribute("open");  // a phone opens on the table
  buildAll();
  go(start.step !== null ? start.step : 0);
  if (window.top === window) app.focus({ preventScroll: true });
})();
