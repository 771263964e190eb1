(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, actions = data.actions, events = data.events;
  var last = frames.length - 1;
  var idx = 0, lang = "zh", view = 0;
  var ORDER = "DX2AKQJT9876543";
  var LABEL = {
    zh: { round: "第 {n} 轮", pass: "过", yield: "让", burn: "烧", lead: "发牌", deal: "发牌前",
          opened: "开点", headless: "无头", burning: "烧牌中", melee: "四户乱缠", cards: "张",
          score: "得分", team1: "1·3·5 联邦", team0: "2·4·6 联邦", illegal: "违规", top: "桌面" },
    en: { round: "Round {n}", pass: "pass", yield: "yield", burn: "burn", lead: "lead", deal: "deal",
          opened: "opened", headless: "headless", burning: "burning", melee: "four-way melee", cards: "cards",
          score: "Score", team1: "Team 1·3·5", team0: "Team 2·4·6", illegal: "illegal", top: "top" }
  };
  function t(key) { return LABEL[lang][key]; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function cardFace(rank, n) {
    var c = el("span", "card");
    var shown = rank === "T" ? "10" : rank;
    if (rank === "D") { c.className += " joker-big"; shown = lang === "zh" ? "大王" : "BJ"; }
    else if (rank === "X") { c.className += " joker-small"; shown = lang === "zh" ? "小王" : "SJ"; }
    else if ("2AKQJ".indexOf(rank) >= 0) c.className += " red";
    c.appendChild(document.createTextNode(shown));
    if (n > 1) c.appendChild(el("sub", "", "×" + n));
    return c;
  }
  function cardGroups(cards, box) {
    for (var i = 0; i < ORDER.length; i++) {
      var n = 0;
      for (var j = 0; j < cards.length; j++) if (cards[j] === ORDER[i]) n++;
      if (n) box.appendChild(cardFace(ORDER[i], n));
    }
  }
  function actionText(a) {
    if (a.kind === "pass") return t("pass");
    if (a.kind === "yield") return t("yield");
    return (a.burn ? t("burn") + " " : "") + a.cards;
  }
  function placeName(p) { return data.placeNames[lang][p - 1]; }

  var seatBoxes = [], listItems = [], eventItems = [];
  for (var s = 1; s <= 6; s++) seatBoxes.push(document.getElementById("seat" + s));

  function buildLists() {
    var ol = document.getElementById("actions");
    ol.textContent = "";
    listItems = [];
    actions.forEach(function (a, i) {
      var li = el("li");
      var prevRound = i > 0 ? actions[i - 1].round : null;
      li.appendChild(el("span", "rn", a.round !== prevRound && a.round ? a.round + "." : ""));
      li.appendChild(document.createTextNode(a.text + (a.glyph || "")));
      a.comments.forEach(function (c) { li.appendChild(el("span", "comment", c)); });
      li.addEventListener("click", function () { go(i + 1); });
      if (data.diagnostic && data.diagnostic.action === i) li.className = "illegal";
      ol.appendChild(li);
      listItems.push(li);
    });
    var ev = document.getElementById("events");
    ev.textContent = "";
    eventItems = [];
    events.forEach(function (e) {
      var li = el("li");
      var who = e.seats.length ? " · " + e.seats.join("→") : "";
      var extra = e.place ? " " + placeName(e.place) : (e.cards ? " " + e.cards : "");
      li.textContent = "#" + (e.action + 1) + " " + e[lang] + who + extra;
      li.title = (lang === "zh" ? e.ruleZh : e.rule) + " — " + e.source;
      li.addEventListener("click", function () { go(e.action + 1); });
      ev.appendChild(li);
      eventItems.push(li);
    });
  }

  function show() {
    var f = frames[idx];
    document.getElementById("pos").textContent = idx + " / " + last;
    document.getElementById("slider").value = idx;
    seatBoxes.forEach(function (box, k) {
      var seat = k + 1, cards = f.hands[k], n = f.counts[k];
      var count = box.querySelector(".count");
      count.textContent = n + " " + t("cards");
      count.className = "count" + (n > 0 && n <= 10 ? " report" : "");
      box.classList.toggle("to-act", f.toAct === seat);
      box.classList.toggle("done", n === 0);
      var badges = box.querySelector(".badges");
      badges.textContent = "";
      var place = f.finished.indexOf(seat);
      if (place >= 0) badges.appendChild(el("span", "place", placeName(place + 1)));
      if (f.opened.indexOf(seat) >= 0) badges.appendChild(el("span", "open", t("opened")));
      if (f.headless.indexOf(seat) >= 0) badges.appendChild(el("span", "headless", t("headless")));
      if (f.burner === seat) badges.appendChild(el("span", "burn", t("burning")));
      var hand = box.querySelector(".hand");
      hand.textContent = "";
      if (view === 0 || view === seat) cardGroups(cards, hand);
      else if (n) hand.appendChild(el("span", "card back", "×" + n));
      var said = box.querySelector(".said");
      said.textContent = "";
      for (var j = f.trick.length - 1; j >= 0; j--) {
        var a = actions[f.trick[j]];
        if (a.seat === seat) { said.appendChild(el("span", a.kind === "play" ? "play" : "pass", actionText(a))); break; }
      }
    });
    var centre = document.querySelector(".centre");
    var roundNo = f.trick.length ? actions[f.trick[0]].round : null;
    centre.querySelector(".round").textContent = idx === 0 ? t("deal") :
      t("round").replace("{n}", roundNo || f.round) + (f.melee ? " · " + t("melee") : "");
    var top = centre.querySelector(".top");
    top.textContent = "";
    if (f.top) { top.appendChild(el("span", "", f.top.seat + ": ")); cardGroups(f.top.cards, top); }
    var trick = centre.querySelector(".trick");
    trick.textContent = "";
    f.trick.forEach(function (i) {
      var a = actions[i];
      trick.appendChild(el("li", i === idx - 1 ? "current" : "", a.seat + ": " + actionText(a)));
    });
    listItems.forEach(function (li, i) { li.classList.toggle("current", i === idx - 1); });
    if (idx > 0 && listItems[idx - 1]) keepVisible(listItems[idx - 1]);
    if (history.replaceState) history.replaceState(null, "", "#a=" + idx);
    eventItems.forEach(function (li, i) {
      var past = events[i].action < idx;
      li.className = past ? "past" : "future";
    });
    var diag = document.getElementById("diagnostic");
    if (data.diagnostic && idx === last) {
      diag.hidden = false;
      var d = data.diagnostic;
      diag.textContent = t("illegal") + ": " +
        (d.where || "[" + d.code + "] " + d.message + "\n" + d.rule + " — " + d.source);
    } else diag.hidden = true;
    var res = document.getElementById("result");
    if (data.places && idx === last) {
      res.hidden = false;
      res.textContent = "";
      data.places.forEach(function (seat, i) {
        res.appendChild(el("div", "", placeName(i + 1) + " · " + seat + " " + data.players[seat - 1]));
      });
      if (data.scores) res.appendChild(el("div", "", t("score") + ": " + t("team1") + " " + data.scores["1"] +
        ", " + t("team0") + " " + data.scores["0"]));
    } else res.hidden = true;
  }

  function keepVisible(li) {  // scroll the list only, never the page
    var box = li.parentNode;
    if (li.offsetTop < box.scrollTop) box.scrollTop = li.offsetTop;
    else if (li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = li.offsetTop + li.offsetHeight - box.clientHeight;
  }
  function go(i) { idx = Math.max(0, Math.min(last, i)); show(); }
  function setLang(l) {
    lang = l;
    document.documentElement.lang = l === "zh" ? "zh-Hans" : "en";
    document.getElementById("lang").textContent = l === "zh" ? "English" : "中文";
    document.querySelectorAll("[data-zh]").forEach(function (e) { e.textContent = e.getAttribute("data-" + l); });
    buildLists();
    show();
  }

  document.getElementById("slider").max = last;
  document.getElementById("slider").addEventListener("input", function (e) { go(+e.target.value); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(idx - 1); });
  document.getElementById("next").addEventListener("click", function () { go(idx + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  document.getElementById("lang").addEventListener("click", function () { setLang(lang === "zh" ? "en" : "zh"); });
  document.getElementById("view").addEventListener("change", function (e) { view = +e.target.value; show(); });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT" && e.target.type !== "range")) return;
    if (e.key === "ArrowRight") { go(idx + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(idx - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(last); e.preventDefault(); }
  });
  var m = /^#a=(\d+)$/.exec(location.hash);
  setLang("zh");
  go(m ? +m[1] : 0);
})();
