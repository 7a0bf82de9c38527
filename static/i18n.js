/*
 * UI strings in English and 简体中文 and the language switch. Templates mark text with
 * data-i18n="key" (and attributes with data-i18n-attr="attr:key;attr:key"); this file
 * fills them in and re-renders on a switch without a reload. The choice is remembered in
 * the `lang` cookie (read by the server, which passes it to templates) and localStorage.
 * game.js and home.js call I18N.t() for strings they build and I18N.onChange() to redraw.
 */
(function () {
  "use strict";

  const STRINGS = {
    en: {
      "nav.play": "Play",
      "nav.players": "Players",
      "players.title": "Players",
      "players.lead": "Elo ratings from the games finished on this site. Every player starts at 1500.",
      "players.player": "Player",
      "players.kind": "Kind",
      "players.games": "Games",
      "players.wld": "W-L-D",
      "players.rating": "Rating",
      "players.watch": "Start an AI-vs-AI match",
      "players.kind.negamax": "negamax",
      "players.kind.mcts": "MCTS",
      "players.kind.engine": "Gomocup engine",
      "players.kind.human": "people",
      "players.group.negamax": "Negamax",
      "players.group.mcts": "Monte Carlo",
      "players.group.engine": "Gomocup engines",
      "result.forfeit": "{winner} wins — {loser} forfeited",
      "think.playouts": "Playouts",
      "nav.watch": "Watch AI vs AI",
      "nav.watch_short": "Watch",
      "nav.skip": "Skip to content",
      "footer.text": "Gomoku · five in a row · freestyle, standard and renju rules",

      "home.title": "Five in a row",
      "home.tagline":
        "Play a strong engine, challenge a friend with a link, or watch two AIs battle — on boards from 7×7 to 22×22 with freestyle, standard and renju rules.",
      "home.ai.title": "Play the computer",
      "home.ai.start": "Play",
      "home.friend.title": "Play a friend",
      "home.friend.lead":
        "Create a game and send the link. The first person to open it takes the other seat.",
      "home.friend.start": "Create link",
      "home.aivai.title": "Watch AI vs AI",
      "home.aivai.lead": "Pick two engines and watch them think move by move.",
      "home.aivai.start": "Start match",
      "home.import.title": "Import a game",
      "home.import.lead":
        "Paste a PSQ (Piskvork) record or choose a file, then play on from that position against the computer.",
      "home.import.start": "Import and play",
      "home.import.empty": "Paste a PSQ record or choose a file first.",
      "home.live.title": "Games in progress",
      "home.live.empty": "No games in progress right now. Start one!",
      "home.live.watch": "Watch",
      "home.live.moves": "{count} moves",
      "home.creating": "Creating…",

      "form.level": "Level",
      "form.colour": "Your colour",
      "form.style": "AI style",
      "form.rule": "Rule",
      "form.size": "Board size",
      "form.size_other": "Other…",
      "form.clock": "Clock",
      "form.use_clock": "Play with a clock",
      "form.base_minutes": "Minutes",
      "form.increment_seconds": "Increment (s)",
      "form.black_level": "Black",
      "form.white_level": "White",
      "form.psq": "PSQ record",
      "form.psq_placeholder": "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0",
      "form.psq_file": "Choose a .psq file",
      "form.play_as": "Play as",
      "form.side_to_move": "Side to move",

      "rule.freestyle": "Freestyle",
      "rule.standard": "Standard",
      "rule.renju": "Renju",
      "mode.ai": "vs AI",
      "mode.friend": "Friends",
      "mode.aivai": "AI vs AI",
      "style.attack": "Attack",
      "style.balanced": "Balanced",
      "style.defence": "Defence",
      "color.black": "Black",
      "color.white": "White",
      "color.random": "Random",
      "color.black_cap": "Black",
      "color.white_cap": "White",
      "color.black_lower": "black",
      "color.white_lower": "white",

      // The same names and descriptions as engine/levels.py.
      "level.1.name": "Beginner",
      "level.1.description": "Looks one move ahead and often misjudges.",
      "level.2.name": "Casual",
      "level.2.description": "Sees simple threats two moves ahead.",
      "level.3.name": "Club",
      "level.3.description": "Searches a quarter of a second a move.",
      "level.4.name": "Expert",
      "level.4.description": "Searches one second a move.",
      "level.5.name": "Master",
      "level.5.description": "Full strength: three seconds a move.",

      "board.aria": "Gomoku board: arrow keys move the cursor, Enter plays",
      "replay.first": "First move",
      "replay.prev": "Previous move",
      "replay.next": "Next move",
      "replay.last": "Last move",
      "toggle.numbers": "Move numbers",
      "toggle.pv": "Show PV",

      "player.you": "you",
      "player.guest": "Guest",
      "player.ai": "AI Level {level}",
      "player.engine": "engine",
      "player.online": "online",
      "player.offline": "offline",
      "player.waiting": "waiting for a player…",
      "player.open_seat": "Open seat",

      "status.waiting": "Waiting for opponent — share this link",
      "status.your_turn": "Your turn",
      "status.ai_thinking": "AI is thinking…",
      "status.ai_side_thinking": "{color} AI is thinking…",
      "status.opponent_turn": "Opponent's turn",
      "status.to_move": "{color} to move",

      "result.five": "{winner} wins — five in a row",
      "result.forbidden": "{winner} wins — {loser} played a forbidden move",
      "result.resign": "{winner} wins — {loser} resigned",
      "result.timeout": "{winner} wins — {loser} ran out of time",
      "result.win": "{winner} wins",
      "result.draw": "Draw",
      "result.draw_full": "Draw — the board is full",
      "result.you_won": "You won. Well played!",
      "result.you_lost": "You lost. Try again?",
      "result.you_drew": "A hard-fought draw.",

      "game.share_label": "Send this link to your friend",
      "game.move_label": "Move",
      "game.engine": "Engine",
      "game.eval": "Evaluation",
      "game.moves": "Moves",
      "game.no_moves": "No moves yet.",
      "game.spectators": "Spectators",
      "game.reconnecting": "Reconnecting…",
      "game.copied": "Link copied",
      "game.hint_toast": "Hint: {move}",
      "game.rematch_link": "Go to the rematch →",
      "game.opponent_joined": "Your opponent has joined",

      "action.copy": "Copy",
      "action.copy_link": "Copy share link",
      "action.export": "Export PSQ",
      "action.undo": "Undo",
      "action.hint": "Hint",
      "action.takeback": "Offer takeback",
      "action.resign": "Resign",
      "action.accept": "Accept",
      "action.decline": "Decline",
      "action.rematch": "Rematch",
      "action.new_game": "New game",
      "action.play": "Play",

      "takeback.sent": "Takeback offered — waiting for an answer",
      "takeback.offered": "{color} asks to take back a move",
      "confirm.resign": "Resign this game?",

      "think.depth": "Depth",
      "think.score": "Score",
      "think.nps": "Speed",
      "think.nodes": "Nodes",
      "think.pv": "PV",
      "eval.black_better": "Black better",
      "eval.white_better": "White better",

      "error.bad_request": "Bad request",
      "error.not_found": "Game not found",
      "error.not_your_turn": "It is not your turn",
      "error.not_a_player": "You are watching this game",
      "error.illegal_move": "Illegal move",
      "error.stale": "The game moved on — try again",
      "error.game_over": "The game is over",
      "error.rate_limited": "Slow down a little",
      "error.occupied": "That point is already taken",
      "error.offline": "Not connected — reconnecting…",
      "error.bad_point": "Cannot read a point from “{text}”: use h8 or 7,7",
      "error.network": "Network error — please try again",

      "notfound.title": "Game not found",
      "notfound.body": "This page or game does not exist. It may have been a mistyped link.",
      "notfound.home": "Back to the lobby",
    },
    zh: {
      "nav.play": "对弈",
      "nav.players": "棋手",
      "players.title": "棋手",
      "players.lead": "根据本站已结束的对局计算的 Elo 等级分，每位棋手从 1500 起步。",
      "players.player": "棋手",
      "players.kind": "类型",
      "players.games": "局数",
      "players.wld": "胜-负-和",
      "players.rating": "等级分",
      "players.watch": "开始一场 AI 对战",
      "players.kind.negamax": "负极大值",
      "players.kind.mcts": "蒙特卡洛",
      "players.kind.engine": "Gomocup 引擎",
      "players.kind.human": "真人",
      "players.group.negamax": "负极大值",
      "players.group.mcts": "蒙特卡洛",
      "players.group.engine": "Gomocup 引擎",
      "result.forfeit": "{winner}胜——{loser}判负",
      "think.playouts": "模拟",
      "nav.watch": "观看 AI 对战",
      "nav.watch_short": "观战",
      "nav.skip": "跳到正文",
      "footer.text": "五子棋 · 连五取胜 · 无禁手、标准与连珠规则",

      "home.title": "五子连珠",
      "home.tagline":
        "挑战强大的引擎、发链接约好友对局，或观看两个 AI 对战——棋盘从 7×7 到 22×22，支持无禁手、标准和连珠规则。",
      "home.ai.title": "人机对弈",
      "home.ai.start": "开始",
      "home.friend.title": "与好友对弈",
      "home.friend.lead": "创建对局并发送链接，第一个打开链接的人将坐上另一方的座位。",
      "home.friend.start": "创建链接",
      "home.aivai.title": "观看 AI 对战",
      "home.aivai.lead": "选择两个引擎，逐步观看它们的思考。",
      "home.aivai.start": "开始对战",
      "home.import.title": "导入棋谱",
      "home.import.lead": "粘贴 PSQ（Piskvork）棋谱或选择文件，然后从该局面继续与电脑对弈。",
      "home.import.start": "导入并对弈",
      "home.import.empty": "请先粘贴 PSQ 棋谱或选择文件。",
      "home.live.title": "正在进行的对局",
      "home.live.empty": "暂时没有进行中的对局。来开一局吧！",
      "home.live.watch": "观战",
      "home.live.moves": "{count} 手",
      "home.creating": "正在创建…",

      "form.level": "难度",
      "form.colour": "执子",
      "form.style": "AI 风格",
      "form.rule": "规则",
      "form.size": "棋盘大小",
      "form.size_other": "其他…",
      "form.clock": "计时",
      "form.use_clock": "使用棋钟",
      "form.base_minutes": "分钟",
      "form.increment_seconds": "每步加秒",
      "form.black_level": "黑方",
      "form.white_level": "白方",
      "form.psq": "PSQ 棋谱",
      "form.psq_placeholder": "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0",
      "form.psq_file": "选择 .psq 文件",
      "form.play_as": "执子",
      "form.side_to_move": "轮到的一方",

      "rule.freestyle": "无禁手",
      "rule.standard": "标准",
      "rule.renju": "连珠",
      "mode.ai": "人机",
      "mode.friend": "好友",
      "mode.aivai": "AI 对战",
      "style.attack": "进攻",
      "style.balanced": "均衡",
      "style.defence": "防守",
      "color.black": "黑棋",
      "color.white": "白棋",
      "color.random": "随机",
      "color.black_cap": "黑方",
      "color.white_cap": "白方",
      "color.black_lower": "黑方",
      "color.white_lower": "白方",

      "level.1.name": "入门",
      "level.1.description": "只看一步，常常判断失误。",
      "level.2.name": "休闲",
      "level.2.description": "能看到两步内的简单威胁。",
      "level.3.name": "业余",
      "level.3.description": "每步搜索四分之一秒。",
      "level.4.name": "高手",
      "level.4.description": "每步搜索一秒。",
      "level.5.name": "大师",
      "level.5.description": "全力以赴：每步三秒。",

      "board.aria": "五子棋棋盘：方向键移动光标，回车落子",
      "replay.first": "第一手",
      "replay.prev": "上一手",
      "replay.next": "下一手",
      "replay.last": "最后一手",
      "toggle.numbers": "显示手数",
      "toggle.pv": "显示主变",

      "player.you": "你",
      "player.guest": "访客",
      "player.ai": "AI {level} 级",
      "player.engine": "引擎",
      "player.online": "在线",
      "player.offline": "离线",
      "player.waiting": "等待玩家加入…",
      "player.open_seat": "空位",

      "status.waiting": "等待对手加入——请分享此链接",
      "status.your_turn": "轮到你了",
      "status.ai_thinking": "AI 思考中…",
      "status.ai_side_thinking": "{color} AI 思考中…",
      "status.opponent_turn": "对手走棋中",
      "status.to_move": "{color}走棋",

      "result.five": "{winner}胜——五子连珠",
      "result.forbidden": "{winner}胜——{loser}走了禁手",
      "result.resign": "{winner}胜——{loser}认输",
      "result.timeout": "{winner}胜——{loser}超时",
      "result.win": "{winner}胜",
      "result.draw": "和棋",
      "result.draw_full": "和棋——棋盘已满",
      "result.you_won": "你赢了，下得漂亮！",
      "result.you_lost": "你输了，再来一局？",
      "result.you_drew": "一场激烈的和棋。",

      "game.share_label": "把这个链接发给你的好友",
      "game.move_label": "落子",
      "game.engine": "引擎",
      "game.eval": "形势",
      "game.moves": "棋谱",
      "game.no_moves": "尚未落子。",
      "game.spectators": "观众",
      "game.reconnecting": "正在重新连接…",
      "game.copied": "链接已复制",
      "game.hint_toast": "提示：{move}",
      "game.rematch_link": "前往再战对局 →",
      "game.opponent_joined": "对手已加入",

      "action.copy": "复制",
      "action.copy_link": "复制分享链接",
      "action.export": "导出 PSQ",
      "action.undo": "悔棋",
      "action.hint": "提示",
      "action.takeback": "请求悔棋",
      "action.resign": "认输",
      "action.accept": "同意",
      "action.decline": "拒绝",
      "action.rematch": "再来一局",
      "action.new_game": "新对局",
      "action.play": "落子",

      "takeback.sent": "已请求悔棋——等待对方回应",
      "takeback.offered": "{color}请求悔棋",
      "confirm.resign": "确定认输吗？",

      "think.depth": "深度",
      "think.score": "评分",
      "think.nps": "速度",
      "think.nodes": "节点",
      "think.pv": "主变",
      "eval.black_better": "黑方占优",
      "eval.white_better": "白方占优",

      "error.bad_request": "请求无效",
      "error.not_found": "找不到对局",
      "error.not_your_turn": "还没轮到你",
      "error.not_a_player": "你正在观战",
      "error.illegal_move": "非法落子",
      "error.stale": "局面已更新，请重试",
      "error.game_over": "对局已结束",
      "error.rate_limited": "操作太快了",
      "error.occupied": "该点已有棋子",
      "error.offline": "未连接——正在重新连接…",
      "error.bad_point": "无法识别“{text}”：请输入 h8 或 7,7",
      "error.network": "网络错误，请重试",

      "notfound.title": "找不到对局",
      "notfound.body": "该页面或对局不存在，可能是链接输错了。",
      "notfound.home": "返回大厅",
    },
  };

  const LANGS = ["en", "zh"];
  const listeners = [];

  function readCookie(name) {
    const match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return match ? decodeURIComponent(match[1]) : null;
  }

  function storedLang() {
    try {
      return localStorage.getItem("lang");
    } catch (_err) {
      return null;
    }
  }

  // The URL wins (a shared ?lang= link), then the cookie the server saw, then this
  // browser's memory, then what the server rendered.
  function initialLang() {
    const query = new URLSearchParams(window.location.search).get("lang");
    for (const candidate of [
      query,
      readCookie("lang"),
      storedLang(),
      document.documentElement.dataset.lang,
    ]) {
      if (LANGS.includes(candidate)) return candidate;
    }
    return "en";
  }

  let lang = initialLang();

  function remember(code) {
    document.cookie = `lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax`;
    try {
      localStorage.setItem("lang", code);
    } catch (_err) {
      /* private mode: the cookie alone still works */
    }
  }

  function has(key) {
    return key in STRINGS[lang] || key in STRINGS.en;
  }

  function t(key, params) {
    let text = STRINGS[lang][key];
    if (text === undefined) text = STRINGS.en[key];
    if (text === undefined) return key;
    if (params) {
      text = text.replace(/\{(\w+)\}/g, (whole, name) =>
        name in params ? String(params[name]) : whole,
      );
    }
    return text;
  }

  function apply(root) {
    const scope = root || document;
    // The text the page was served with is the fallback for keys this table lacks, so
    // switching back and forth never leaves a stale translation behind.
    scope.querySelectorAll("[data-i18n]").forEach((el) => {
      const key = el.dataset.i18n;
      if (el.dataset.i18nDefault === undefined) el.dataset.i18nDefault = el.textContent;
      const params =
        el.dataset.i18nCount !== undefined ? { count: el.dataset.i18nCount } : undefined;
      el.textContent = has(key) ? t(key, params) : el.dataset.i18nDefault;
    });
    scope.querySelectorAll("[data-i18n-attr]").forEach((el) => {
      for (const pair of el.dataset.i18nAttr.split(";")) {
        const [attr, key] = pair.split(":");
        if (attr && key && has(key)) el.setAttribute(attr.trim(), t(key.trim()));
      }
    });
    scope.querySelectorAll("[data-i18n-level]").forEach((el) => {
      const number = el.dataset.i18nLevel;
      if (el.dataset.i18nDefault === undefined) el.dataset.i18nDefault = el.textContent;
      const key = `level.${number}.name`;
      el.textContent = has(key) ? `${number} · ${t(key)}` : el.dataset.i18nDefault;
    });
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.documentElement.dataset.lang = lang;
    document.querySelectorAll("[data-set-lang]").forEach((el) => {
      const active = el.dataset.setLang === lang;
      el.classList.toggle("active", active);
      el.setAttribute("aria-pressed", active ? "true" : "false");
    });
  }

  function setLang(code) {
    if (!LANGS.includes(code)) return;
    lang = code;
    remember(code);
    // Drop a ?lang= from the address so a reload keeps the remembered choice.
    const url = new URL(window.location.href);
    if (url.searchParams.has("lang")) {
      url.searchParams.delete("lang");
      window.history.replaceState(null, "", url.pathname + url.search + url.hash);
    }
    apply();
    listeners.forEach((fn) => fn(lang));
  }

  function onChange(fn) {
    listeners.push(fn);
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("[data-set-lang]");
    if (!link) return;
    event.preventDefault();
    setLang(link.dataset.setLang);
  });

  remember(lang);
  apply();

  window.I18N = {
    t,
    has,
    apply,
    setLang,
    onChange,
    get lang() {
      return lang;
    },
  };
})();
