/**
 * Page prose for the explainer page (web/): everything the page shows that is not a table, a
 * readout label or a self-check label (those live in ../i18n.ts). Chinese first (the lesson's
 * language), English with exactly the same keys; `{name}` marks a value filled in at run time.
 * Pure data plus one lookup: no imports, browser-safe.
 */

export type PageLang = "zh" | "en";

const zh = {
  "page.doc.title": "从格到面 · meshway",
  "page.intro.title": "导言",
  "page.methodName.simple": "简单方法",
  "page.methodName.meshway": "meshway 流水线",
  "page.summary":
    "现在（{method}）：{cells} 个可走格，按半径 {r} 过滤后剩 {kept} 个；切成 {polygons} 个凸多边形；A* 找出 {sequence} 个多边形的序列；穿过门户（portal）中点的折线 {midPoints} 个点、长 {midLength}；逐点试删之后 {dropPoints} 个点、长 {dropLength}；漏斗算法（funnel）拉直成 {funnelPoints} 个点、长 {funnelLength}；精确最短路长 {exactLength}。",
  "page.controls.step": "步骤",
  "page.controls.prev": "上一步",
  "page.controls.next": "下一步",
  "page.s1.canvas": "第 ① 段的图：被测的形状和 60 条采样连线",
  "page.s2.canvas": "第 ② 段的图：按半径过滤后的格",
  "page.s3.canvas": "第 ③ 段的图：切出的多边形",
  "page.s4.canvas": "第 ④ 段的图：多边形序列和路径",
  "page.s4.why":
    "为什么逐点试删会停住：它只能删点，不能挪点——每个中点的捷径都擦过墙角出了可走面，就一个也删不掉；漏斗把拐点直接放到门户的端点，也就是墙角上，最短路正是在那里拐弯。",
  "page.s4.step.midpoint":
    "第 0 步：把 A* 选出的多边形串起来，穿过每个门户的中点（{points} 个点，长 {length}）。",
  "page.s4.step.drop":
    "第 {step} 步 · 逐点试删 {k} / {n}：试删点 {point}（画圈的点），从点 {prev} 到点 {next} 的捷径（虚线）{verdict}",
  "page.s4.step.dropYes": "留在可走面上 → 删掉这个点。",
  "page.s4.step.dropNo": "出了可走面 → 这个点留下。",
  "page.s4.step.stall": "一整轮没有删掉任何点：试删停在这里（{points} 个点里留下 {kept} 个）。",
  "page.s4.step.funnel":
    "第 {step} 步 · 漏斗，门户 {portal} / {portals}：顶点 {apex}（圆圈），左边到 {left}，右边到 {right}；已定下 {fixed} 个点。",
  "page.s4.step.bend":
    "第 {step} 步 · 漏斗，门户 {portal} / {portals}：左右两条边交叉了，漏斗不能再收紧——顶点跳到墙角 {apex}，路径在这里拐弯（已定下 {fixed} 个点），漏斗从这个角重新张开。",
  "page.s4.step.done":
    "最后一步：最终路径是漏斗的结果，{points} 个点、长 {length}；精确最短路 {exact}；逐点试删停在 {dropped}。",
  "page.code.s1": "运行的代码：判据①，相邻两条边的叉积（src/lesson/geometry.ts 原文）",
  "page.code.s2":
    "运行的代码：格心到障碍的距离和按半径过滤（src/lesson/scene.ts、surface.ts 原文）",
  "page.code.s3": "运行的代码：极大矩形（src/lesson/rectangles.ts 原文）",
  "page.code.title": "这一步运行的代码（src/lesson/funnel.ts 原文，正在运行的行高亮）",
  "page.probe.idle":
    "指向图中一点（鼠标、手指轻点，或用 Tab 选中图后按方向键）：这一行会说出那里是什么、为什么。",
  "page.probe.outside": "不在图里。",
  "page.probe.start": "起点",
  "page.probe.goal": "终点",
  "page.probe.pickUp":
    " · 按 Enter 拿起{what}，方向键移动它，再按 Enter 放下（S / G 直接拿起起点 / 终点）",
  "page.probe.carrying": " · 正在移动{what}：方向键一格一格地移，Enter 放下",
  "page.probe.shape": "x = {x}，z = {z}：{where}。",
  "page.probe.at": "x = {x}，z = {z} · {cell} · {walkable}：{reason}{polygon}",
  "page.probe.inObstacle": "格心在障碍里",
  "page.probe.removedSimple": "格心离障碍 {d} < 半径 {r} → 被半径滤掉",
  "page.probe.keptSimple": "格心离障碍 {d} ≥ 半径 {r} → 留下",
  "page.probe.removedMeshway":
    "格心离障碍 {d}；meshway 把半径 {r} 取整成 {voxels} 个体素再腐蚀 → 滤掉",
  "page.probe.keptMeshway":
    "格心离障碍 {d}；meshway 把半径 {r} 取整成 {voxels} 个体素再腐蚀 → 留下",
  "page.honest.1.title": "如实说明：障碍的形状",
  "page.honest.2.title": "如实说明：两种过滤为什么不同",
  "page.honest.3.title": "如实说明：两种划分",
  "page.honest.4.title": "如实说明：拉直和最短路",
  "page.title": "从格到面",
  "page.subtitle": "导航网格为什么能用：四步，每一步都由 meshway 在你的浏览器里现场量出来",
  "page.lede":
    "在方格上找路，数、方向和人都待在格子里；可真实关卡的地面是任意形状。这一课把承载路径的东西从“格”换成“面”：先把场景切成格、滤掉角色（agent）挤不进的地方，再把剩下的面切成凸多边形，最后在多边形组成的图上找路并拉直。每一步先用最朴素的做法（简单方法）讲清楚，再换成 meshway 真正的流水线对照。",
  "page.roadmap":
    "每一段都把同一件事做两遍：一遍是最朴素的做法（简单方法），一遍是 meshway 真正的流水线（体素距离场腐蚀、区域 → 轮廓 → 凸多边形、漏斗）。两边的差别都写成数字，放在同一张表里。",
  "page.nav.title": "分段",
  "page.controls.reset": "复位",
  "page.controls.shape": "拿哪个形状试凸性",
  "page.shape.square": "正方形（凸）",
  "page.shape.L": "L 形",
  "page.controls.corner": "L 形的内角（也可以在图上拖动蓝圈）",
  "page.controls.cornerX": "内角 x",
  "page.controls.cornerZ": "内角 z",
  "page.controls.radius": "角色半径",
  "page.controls.method": "方法：先看简单方法，再换成真正的流水线",
  "page.method.simple": "简单方法",
  "page.method.meshway": "现在换成真正的流水线：meshway",
  "page.controls.lang": "语言",
  "page.hover.shapeName.square": "正方形",
  "page.hover.shapeName.L": "L 形",
  "page.fallback":
    "这台设备拿不到画布（canvas）的 2D 绘图上下文，所以画面显示不出来。下面的文字、读数和四张表照常计算、照常更新——画面只是把同一份数据画出来而已。",
  "page.readouts.title": "读数",
  "page.section.gap": "上一步留下的缺口",
  "page.section.adds": "这一步只增加一样东西",
  "page.section.observe": "动手看",
  "page.s1.title": "① 为什么必须是凸的",
  "page.s1.gap":
    "格子只能说“这一格能不能走”，说不了“贴着墙走”“斜穿走廊”。要换成面，第一件事是定下面该是什么形状。",
  "page.s1.adds":
    "凸多边形：面内任意两点的连线都不离开这个面。用两种互相独立的方法检验——相邻两条边的叉积是否同号；在面内随机取 1000 对点，每条连线采样 256 个点，数有多少对跑出了面。",
  "page.s1.observe":
    "在“正方形 / L 形”之间切换，看画面上的 60 条采样连线里有没有被标亮的（离开了形状）。再拖动 L 形的内角（蓝圈，或用滑块）：它在虚线对角线内侧时，那个角的叉积变号（红点；表 ① 里那一个“−”就是它），有连线出界；拖过对角线，两条判据一起变成“凸”。凸性保证同一个面里任意两点可以直线相连，后面拉直路径靠的正是这一点。",
  "page.s2.title": "② 从体素到可走面",
  "page.s2.gap":
    "形状定了，可数据还是一堆三角形，不是多边形。得先把空间变成一张能回答“这里能不能站人”的格子图。",
  "page.s2.adds":
    "体素化加按半径过滤。体素是场景被切成的三维格子里的一格；这里地面是平的，一个体素就是一个 0.5 × 0.5 的格。格心落在障碍里的格记为不可走；再去掉离障碍太近、角色挤不进去的格。简单方法按格心到障碍的精确距离判断（被删的格画成深色斜纹）。meshway（方法在图 ③ 下面切换）在同一场景的三角网格上建体素距离场——记下每一格离可走面边界有几步——再腐蚀：删掉离边界不到半径的格。两种方法结果不同的格，在 meshway 的画法里用品红小方块标出。",
  "page.s2.observe":
    "把半径从 0.25 拖到 1.50，看可走面怎样变窄、窄道在哪个半径被封死。meshway 只有三种过滤：半径向上取整成 1、2 或 3 个体素，所以它的可走面只在 0.55 和 1.05 处变。指向一个格（或按方向键），控件下面那一行会说出它离障碍多远、为什么被删或留下。",
  "page.s3.title": "③ 切成多边形",
  "page.s3.gap":
    "过滤后还剩几百到上千个可走格。把每个格当成图的节点，比直接在方格上找路还要糟——必须把它们压成少量的面。",
  "page.s3.adds":
    "划分：简单方法把可走格切成极大矩形（先向右长到头，再整行向下长）；meshway 走真实流程：区域 → 轮廓 → 凸多边形。检查三件事：面积盖满可走格（矩形恰好相等，meshway 近似）、每个面都是凸的、相邻的面共享一段有长度的边，而不是只碰一个点。",
  "page.s3.observe":
    "找两块颜色的交界，看它是一段线还是一个点。一个点当不了门户，角色也穿不过去，所以能走的交界必须是一段线。meshway 的多边形常在一个顶点处几块相会（红点）：这些点周围的多边形两两之间另有线段相连，不算问题；真正不许出现的是掐点——只在一个点相接、周围也连不起来的两块，两边的这一项都必须是 0。",
  "page.s4.title": "④ 在面上找路",
  "page.s4.gap": "面切好了，但面还不是路：得知道面和面怎样相连，连起来以后具体怎么走。",
  "page.s4.adds":
    "多边形是节点，共享的边是门户；A*（一种图搜索：每次先展开“已走的距离 + 到终点的直线估计”最小的节点）在多边形图上找出一串多边形（图里标着编号）。先穿过各门户的中点连成折线，再用两种办法拉直：逐点试删反复删掉能被捷径替代的点；漏斗从它的顶点（最后定下的点）向门户两端各引一条边，一个门户一个门户地收紧，两条边一交叉，就在墙角定下一个拐点，这个拐点成为新的顶点。用下面的步骤条一步一步看两种拉直；最后一步把所有的线叠在一起，谁也不挡谁。",
  "page.s4.observe":
    "把步骤条从头拖到尾：先看逐点试删在哪一步停住，再看漏斗的顶点怎样一个门户一个门户往前走。最后一步里，宽的蓝带是试删的结果，压在上面的棕色虚线是穿过门户中点的折线，深蓝细线是漏斗，紫色虚线是精确最短路：深蓝线从紫色虚线的缝里露出来，说明漏斗已经最短。拖动起点（绿）或终点（红）换一条路再试；图 ③ 下面选的方法这里也用。",
  "page.honest.title": "如实说明：简单方法与 Recast/Detour 的差别",
  "page.honest.1":
    "障碍只用轴对齐的矩形，这样“点在不在障碍里”和“点离障碍多远”都能精确算出。meshway 接受任意三角网格：同一场景也被做成三角网格（地面加障碍盒子）送进真实流水线。",
  "page.honest.2":
    "简单过滤按格心到障碍的精确距离删格。Recast 和 meshway 先把半径向上取整成整数个体素（0.5 的格上，0.75 就是 2 格），再在体素上做距离场腐蚀：距离从“缺了一个上下左右邻居”的格算起（直走一步记 2，斜走一步记 3），小于 2 × 体素半径的格删掉。\n\n两边谁删得多要看半径：0.25、0.55–0.75、1.05–1.25 时 meshway 删得更多；0.30–0.35、0.80–1.00、1.30–1.45 时完全一样；0.40–0.50 和 1.50 时 meshway 反而多留下几格。\n\n0.40–0.50（1 个体素，阈值 2）时多留的 12 格都在障碍角的斜对面：它只在一个角上碰到障碍，上下左右四个邻居都能走，所以不是距离的起点（起点只看上下左右）；它离起点直走一步，距离 2，不小于阈值 2，就留下了——可它的格心离障碍角只有 0.3536。原因在起点的规则，不在斜走的权重：这一步是直走，把斜走换成精确的 2√2 也一样留下。\n\n1.50（3 个体素，阈值 6）时多留的 17 格才是斜走权重造成的：它们离起点两步斜走（3 + 3 = 6，正好等于阈值），斜走一步记 1.5 倍直走，比实际的 √2 倍长，显得比实际远（换成精确的 2√2 是 5.66，就会被删）；格心离障碍最近 1.4577。",
  "page.honest.3":
    "简单划分是极大矩形；Recast 和 meshway 先用分水岭把可走面分成区域（区域从离边界最远的格向外长），描出并简化轮廓，再三角化，把三角形合并成最多 6 个顶点的凸多边形。这些多边形不限于矩形，可在这个墙全是轴对齐的场景里，这并不意味着更少：r = 0.75 时 meshway 有 14 个多边形，矩形只有 9 个；26 个半径里，0.30–0.35、0.80–1.05、1.30–1.45 这 12 个半径上矩形有 19–22 个，meshway 更少，其余 14 个半径上 meshway 更多。简化轮廓还会把边挪离格线，所以多边形的面积只是近似等于可走格数乘格面积（表 ③ 的面积差）。",
  "page.honest.4":
    "逐点试删只能删点，不能把拐点挪到墙角，所以它会停在比最短路长的地方（r = 0.75 时 33.0158 对 28.9660，一个点也没删掉）。在同一串矩形的门户上跑漏斗，得到的正是精确最短路，26 个半径都是这样——差距来自试删，不是来自 A* 选定的多边形序列。Detour 和 meshway 用的就是漏斗。漏斗只在 A* 选定的序列里拉直，一般不保证全局最短；meshway 的 findShortestPath（仿 Polyanya 的任意角度搜索）求的是精确最短路，这里画成紫色虚线，并检查它不比任何一条拉直的路径长。",
  "page.honest.5":
    "这一课是平面的：只有一层地面、没有台阶和坡。Recast 和 meshway 的真实流水线还处理高度、坡度、台阶和多层结构。画面由 meshway 自己的软件光栅器画出，与命令行 meshway lesson --png 输出的像素一致。",
  "page.legend.title": "图例",
  "page.checks.title": "本页自检",
  "page.checks.summary": "{pass} / {total} 项通过",
  "page.checks.allPass": "全部通过",
  "page.checks.someFail": "有 {fail} 项未通过",
  "page.checks.pass": "通过",
  "page.checks.fail": "未通过",
  "page.checks.measured": "实测：{value}",
  "page.checks.expected": "要求：{value}",
  "page.log.title": "执行日志",
  "page.error": "计算出错：{message}",
  "page.footer":
    "本页的每个数字都是刚才在你的浏览器里由 meshway 算出来的。命令行 meshway lesson 用同一份代码打印同样的四张表。",
} as const;

export type PageMessageKey = keyof typeof zh;

const en: Record<PageMessageKey, string> = {
  "page.doc.title": "From cells to faces · meshway",
  "page.intro.title": "Introduction",
  "page.methodName.simple": "simple method",
  "page.methodName.meshway": "meshway pipeline",
  "page.summary":
    "Now ({method}): {cells} walkable cells, {kept} left after filtering by radius {r}; cut into {polygons} convex polygons; A* finds a sequence of {sequence} polygons; the polyline through the portal midpoints has {midPoints} points and length {midLength}; point-dropping leaves {dropPoints} points, length {dropLength}; the funnel straightens it to {funnelPoints} points, length {funnelLength}; the exact shortest path is {exactLength} long.",
  "page.controls.step": "Step",
  "page.controls.prev": "Back",
  "page.controls.next": "Next",
  "page.s1.canvas": "Section 1 picture: the shape under test and 60 sampled segments",
  "page.s2.canvas": "Section 2 picture: the cells after filtering by radius",
  "page.s3.canvas": "Section 3 picture: the polygons of the partition",
  "page.s4.canvas": "Section 4 picture: the polygon sequence and the paths",
  "page.s4.why":
    "Why point-dropping stalls: it can only delete points, never move one. When every midpoint's shortcut cuts across a wall corner, no point can go. The funnel puts each bend on a portal's end, the wall corner, which is where the shortest path turns.",
  "page.s4.step.midpoint":
    "Step 0: the polygons A* chose, joined through every portal's midpoint ({points} points, length {length}).",
  "page.s4.step.drop":
    "Step {step} · point-dropping test {k} of {n}: try removing point {point} (circled); the shortcut from point {prev} to point {next} (dashed) {verdict}",
  "page.s4.step.dropYes": "stays on the walkable surface → the point goes.",
  "page.s4.step.dropNo": "leaves the walkable surface → the point stays.",
  "page.s4.step.stall":
    "A whole sweep removed nothing: point-dropping stops here ({kept} of {points} points left).",
  "page.s4.step.funnel":
    "Step {step} · funnel, portal {portal} of {portals}: apex {apex} (the ring), left edge to {left}, right edge to {right}; points fixed so far: {fixed}.",
  "page.s4.step.bend":
    "Step {step} · funnel, portal {portal} of {portals}: the two edges crossed, so the funnel cannot tighten any further: the apex jumps to the wall corner {apex}, the path bends there (points fixed so far: {fixed}), and the funnel opens again from that corner.",
  "page.s4.step.done":
    "Last step: the final path is the funnel's, {points} points, length {length}; exact shortest path {exact}; point-dropping stalled at {dropped}.",
  "page.code.s1":
    "The code that runs: criterion ①, cross products of consecutive edges (verbatim from src/lesson/geometry.ts)",
  "page.code.s2":
    "The code that runs: centre-to-obstacle distance and the radius filter (verbatim from src/lesson/scene.ts and surface.ts)",
  "page.code.s3": "The code that runs: maximal rectangles (verbatim from src/lesson/rectangles.ts)",
  "page.code.title":
    "The code this step runs (verbatim from src/lesson/funnel.ts; the running line highlighted)",
  "page.probe.idle":
    "Point at the picture (mouse, tap, or Tab to it and use the arrow keys): this line says what lies there and why.",
  "page.probe.outside": "Outside the picture.",
  "page.probe.start": "start",
  "page.probe.goal": "goal",
  "page.probe.pickUp":
    " · Enter picks up the {what}, arrows move it, Enter drops it (S / G pick up the start / goal at once)",
  "page.probe.carrying": " · moving the {what}: arrows move it cell by cell, Enter drops it",
  "page.probe.shape": "x = {x}, z = {z}: {where}.",
  "page.probe.at": "x = {x}, z = {z} · {cell} · {walkable}: {reason}{polygon}",
  "page.probe.inObstacle": "the cell centre is inside an obstacle",
  "page.probe.removedSimple": "centre {d} from an obstacle < radius {r} → removed by the radius",
  "page.probe.keptSimple": "centre {d} from an obstacle ≥ radius {r} → kept",
  "page.probe.removedMeshway":
    "centre {d} from an obstacle; meshway rounds radius {r} up to {voxels} voxels and erodes → removed",
  "page.probe.keptMeshway":
    "centre {d} from an obstacle; meshway rounds radius {r} up to {voxels} voxels and erodes → kept",
  "page.honest.1.title": "Honest note: the obstacles",
  "page.honest.2.title": "Honest note: why the two filters differ",
  "page.honest.3.title": "Honest note: the two partitions",
  "page.honest.4.title": "Honest note: straightening and the shortest path",
  "page.title": "From cells to faces",
  "page.subtitle":
    "Why navigation meshes work, in four steps, each one measured live in your browser by meshway",
  "page.lede":
    "Path finding on a grid keeps the numbers, the directions and the walker in the cells, but real level floors have any shape. This lesson moves the path from cells to faces: cut the scene into cells and drop those the agent cannot fit into, cut what remains into convex polygons, then search the polygon graph and straighten the result. Each step is first shown the plainest way (the simple method), then compared with meshway's real pipeline.",
  "page.roadmap":
    "Every step is done twice: once the plainest way (the simple method) and once with meshway's real pipeline (voxel distance-field erosion, regions → contours → convex polygons, the funnel). Where they differ, the difference is a number in the same table.",
  "page.nav.title": "Sections",
  "page.controls.reset": "Reset",
  "page.controls.shape": "Shape for the convexity test",
  "page.shape.square": "Square (convex)",
  "page.shape.L": "L shape",
  "page.controls.corner": "The L's inner corner (or drag the blue ring in the picture)",
  "page.controls.cornerX": "Corner x",
  "page.controls.cornerZ": "Corner z",
  "page.controls.radius": "Agent radius",
  "page.controls.method": "Method: the simple one first, then the real pipeline",
  "page.method.simple": "Simple method",
  "page.method.meshway": "Now the real pipeline: meshway",
  "page.controls.lang": "Language",
  "page.hover.shapeName.square": "square",
  "page.hover.shapeName.L": "L shape",
  "page.fallback":
    "This device gives no canvas 2D drawing context, so the pictures cannot be shown. The text, the readouts and all four tables below are still computed and kept up to date: the pictures only draw the same data.",
  "page.readouts.title": "Readouts",
  "page.section.gap": "What the previous step left open",
  "page.section.adds": "What this step adds",
  "page.section.observe": "Try it",
  "page.s1.title": "1 · Why convex",
  "page.s1.gap":
    "A cell can only say whether it is walkable; it cannot say “walk along the wall” or “cut across the corridor”. To move to faces we first have to decide what shape a face must have.",
  "page.s1.adds":
    "Convex polygons: the segment between any two points of the face stays inside it. Two independent tests check it: the cross products of consecutive edges all have the same sign; and 1000 random point pairs inside the shape, each segment sampled at 256 points, counting the pairs that leave the shape.",
  "page.s1.observe":
    "Switch between square and L shape and look for highlighted segments among the 60 drawn: those leave the shape. Then drag the L's inner corner (the blue ring, or the sliders): while it is inside the dashed diagonal its cross product flips sign (red dot; it is the one “−” table ① counts) and segments leave; past the diagonal both criteria turn to convex together. Convexity means any two points of one face are joined by a straight line, which is exactly what straightening the path relies on later.",
  "page.s2.title": "2 · From voxels to a walkable surface",
  "page.s2.gap":
    "The shape is settled, but the data is still a heap of triangles, not polygons. First the space has to become a grid that answers “can someone stand here?”.",
  "page.s2.adds":
    "Voxelize and filter by radius. A voxel is one cell of the 3-D grid the scene is cut into; this floor is flat, so here a voxel is simply a 0.5 × 0.5 cell. A cell whose centre lies inside an obstacle is blocked; then the cells too close to an obstacle for the agent are removed. The simple method uses the exact distance from the cell centre to the nearest obstacle (removed cells are drawn dark and hatched). meshway (switch the method under the picture of section 3) builds a voxel distance field on the scene's triangle mesh, the number of steps from each cell to the edge of the walkable surface, and erodes: it removes the cells closer to that edge than the radius. In meshway's view, the cells where the two methods disagree are marked with small magenta squares.",
  "page.s2.observe":
    "Drag the radius from 0.25 to 1.50 and watch the walkable surface shrink and the narrow passage close. meshway has only three filters: the radius is rounded up to 1, 2 or 3 voxels, so its surface changes only at 0.55 and 1.05. Point at a cell (or use the arrow keys): the line under the controls says how far it is from an obstacle and why it was removed or kept.",
  "page.s3.title": "3 · Cut into polygons",
  "page.s3.gap":
    "After filtering, hundreds of walkable cells remain. Using every cell as a graph node would be worse than searching the grid directly: they must be merged into a few faces.",
  "page.s3.adds":
    "A partition: the simple method cuts the walkable cells into maximal rectangles (grow right as far as possible, then grow the whole run down); meshway runs the real pipeline: regions → contours → convex polygons. Three things are checked: the area covers the walkable cells (exactly for the rectangles, approximately for meshway), every face is convex, and neighbouring faces share an edge of positive length rather than a single point.",
  "page.s3.observe":
    "Find a place where two colours meet and check whether they meet along a segment or at a point. A point cannot be a portal and an agent cannot pass through it, so a usable join must be a segment. meshway's polygons often meet several at one vertex (red dots); that is harmless, because the polygons around such a point are joined to each other by segments. What must never happen is a pinch: two faces touching at a single point with no segment around it. Both methods must count 0 pinches.",
  "page.s4.title": "4 · Find a path on faces",
  "page.s4.gap":
    "The faces are cut, but faces are not yet a path: we need to know how faces connect and how to walk across them.",
  "page.s4.adds":
    "Polygons are nodes and shared edges are portals; A* (a graph search that always expands next the node whose distance so far plus a straight-line estimate of the rest is smallest) finds a sequence of polygons (numbered in the picture). First the portals' midpoints are joined into a polyline, then it is straightened two ways: point-dropping keeps removing points a shortcut can replace; the funnel runs two edges from its apex (the last fixed point) to the ends of the portals, tightens them portal by portal, and when they cross fixes a bend at a wall corner, which becomes the new apex. Play both with the step slider below; the last step draws every line together, none hiding another.",
  "page.s4.observe":
    "Drag the step slider from start to end: first see where point-dropping stalls, then watch the funnel's apex move on portal by portal. At the last step the wide blue band is point-dropping's result, the dashed brown line on it the polyline through the portal midpoints, the thin navy line the funnel, the dashed purple line the exact shortest path: where the navy shows between the purple dashes, the funnel is already shortest. Drag the start (green) or the goal (red) to try another path; the method chosen under the picture of section 3 applies here too.",
  "page.honest.title": "Honest differences: the simple methods versus Recast/Detour",
  "page.honest.1":
    "Obstacles are axis-aligned rectangles only, so “is this point inside an obstacle” and “how far is it from one” are exact. meshway takes any triangle mesh: the same scene is also built as a triangle mesh (floor plus obstacle boxes) and sent through the real pipeline.",
  "page.honest.2":
    "The simple filter removes a cell when its centre is closer than the radius to an obstacle, using the exact distance. Recast and meshway round the radius up to whole voxels (on 0.5 cells, 0.75 becomes 2 voxels) and erode with a distance field on the voxels: distances start at cells missing one of their four side neighbours (a straight step counts 2, a diagonal 3), and cells closer than 2 × the voxel radius are removed.\n\nWhich side removes more therefore depends on the radius: at 0.25, 0.55–0.75 and 1.05–1.25 meshway removes more; at 0.30–0.35, 0.80–1.00 and 1.30–1.45 both agree exactly; at 0.40–0.50 and 1.50 meshway keeps a few more.\n\nAt 0.40–0.50 (1 voxel, threshold 2) the 12 extra cells all sit diagonally off an obstacle's corner: touching it only at a corner, with all four side neighbours walkable, they are not where distances start (only side neighbours count); one straight step from a start cell they get distance 2, not below the threshold 2, so they stay, although their centres are only 0.3536 from the corner. The cause is that start rule, not the diagonal weight: the step is straight, and an exact diagonal (2√2) would keep them too.\n\nAt 1.50 (3 voxels, threshold 6) the diagonal weight is the cause: the 17 extra cells are two diagonal steps from a start cell (3 + 3 = 6, exactly the threshold); a diagonal counts 1.5 straight steps, more than the true √2, so they look farther than they are (with 2√2 it would be 5.66 and they would go); the nearest centre is 1.4577 from an obstacle.",
  "page.honest.3":
    "The simple partition uses maximal rectangles; Recast and meshway split the walkable surface into regions with a watershed (regions grow outward from the cells farthest from the edge), trace and simplify their contours, then triangulate them and merge the triangles into convex polygons of at most 6 vertices. Those polygons are not limited to rectangles, but in this scene of axis-aligned walls that does not mean fewer: at r = 0.75 meshway has 14 polygons against 9 rectangles; of the 26 radii, at the 12 in 0.30–0.35, 0.80–1.05 and 1.30–1.45 the rectangles number 19–22 and meshway has fewer, at the other 14 meshway has more. Simplifying the contours also moves edges off the cell lines, so the polygons' area only approximately equals the walkable cells times the cell area (table ③'s area difference).",
  "page.honest.4":
    "Point-dropping can only remove points, never move a bend onto a wall corner, so it stops short of the shortest path (r = 0.75: 33.0158 against 28.9660, without removing a single point). The funnel run on the same rectangles' portals gives exactly the shortest path, at all 26 radii: the gap comes from point-dropping, not from the polygon sequence A* fixed. Detour and meshway use the funnel. The funnel only straightens inside the sequence A* chose, so in general it is not guaranteed to be globally shortest; meshway's findShortestPath (an any-angle search in the style of Polyanya) finds the exact shortest path, drawn here as the dashed purple line and checked to be no longer than either straightened path.",
  "page.honest.5":
    "This lesson is flat: one floor, no steps or slopes. The real Recast and meshway pipelines also handle heights, slopes, steps and overlapping floors. The pictures are drawn by meshway's own software rasterizer, with exactly the pixels of the command line's meshway lesson --png.",
  "page.legend.title": "Legend",
  "page.checks.title": "Self-check",
  "page.checks.summary": "{pass} / {total} passed",
  "page.checks.allPass": "all passed",
  "page.checks.someFail": "{fail} failed",
  "page.checks.pass": "pass",
  "page.checks.fail": "FAIL",
  "page.checks.measured": "measured: {value}",
  "page.checks.expected": "required: {value}",
  "page.log.title": "Execution log",
  "page.error": "The computation failed: {message}",
  "page.footer":
    "Every number on this page was computed just now in your browser by meshway. On the command line, meshway lesson prints the same four tables from the same code.",
};

/** Page prose in both languages (same key sets; a test checks it). */
export const PAGE_MESSAGES: {
  zh: Record<PageMessageKey, string>;
  en: Record<PageMessageKey, string>;
} = { zh, en };

/** True when `key` is one of the page's own messages (the rest come from the lesson's MESSAGES). */
export function isPageMessageKey(key: string): key is PageMessageKey {
  return Object.hasOwn(zh, key);
}

/** The page message `key` in `lang`, with `{name}` replaced by `vars[name]` (unknown names kept). */
export function pageText(
  lang: PageLang,
  key: PageMessageKey,
  vars?: Readonly<Record<string, string | number>>,
): string {
  const template = PAGE_MESSAGES[lang][key];
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}
