"""Maximum-cardinality matching on a dense general graph, with trial/rollback.

The Danish pairing (rules.md §7) works on the graph of pairs that *may* meet: every pair may
meet every other one except for a few forbidden rematches. That graph is dense and not
bipartite, so feasibility ("can the remaining pairs still all be paired?") needs Edmonds'
blossom algorithm. The graph is therefore stored by its complement: ``forbidden[v]`` is the
set of vertices ``v`` may not be matched with.

:class:`DenseMatcher` keeps one maximum matching of the *alive* vertices and lets the caller
remove vertices and re-augment inside a *trial* that can be rolled back, so that testing
"does edge P–Q still leave a perfect matching?" costs O(1) in the usual dense case (the two
freed partners are directly compatible) and one augmenting-path search otherwise.

Vertices are integers ``0..n-1``; in the engine they are ranking positions (0 = best).
"""

from __future__ import annotations

__all__ = ["DenseMatcher", "min_unmatched"]


class DenseMatcher:
    """Maximum matching of the alive vertices of a dense graph given by its non-edges.

    Args:
        n: number of vertices, ``0..n-1``.
        forbidden: ``forbidden[v]`` is a set of vertices that ``v`` is *not* adjacent to
            (symmetric; ``v`` itself need not be listed).
        alive: optional iterable of the vertices that take part (default: all).

    The matching is empty until :meth:`maximize` is called.
    """

    def __init__(self, n: int, forbidden: list[set[int]], alive=None):
        self.n = n
        self.forbidden = forbidden
        self.mate = [-1] * n
        if alive is None:
            self.alive = [True] * n
        else:
            self.alive = [False] * n
            for v in alive:
                self.alive[v] = True
        self.exposed = {v for v in range(n) if self.alive[v]}
        self._log: list | None = None

    # -- primitive updates (logged while a trial is open) -------------------------------
    def allowed(self, u: int, v: int) -> bool:
        """True when ``u`` and ``v`` are distinct and may be matched together."""
        return u != v and v not in self.forbidden[u]

    def _set_mate(self, v: int, m: int) -> None:
        if self._log is not None:
            self._log.append((self.mate, v, self.mate[v]))
        self.mate[v] = m
        if m == -1 and self.alive[v]:
            self.exposed.add(v)
        else:
            self.exposed.discard(v)

    def _link(self, u: int, v: int) -> None:
        self._set_mate(u, v)
        self._set_mate(v, u)

    def link(self, u: int, v: int) -> None:
        """Match exposed alive vertices ``u`` and ``v`` (a caller's preferred start edge)."""
        if self.mate[u] != -1 or self.mate[v] != -1 or not (self.alive[u] and self.alive[v]):
            raise ValueError("link: both vertices must be alive and exposed")
        self._link(u, v)

    def remove(self, v: int) -> int:
        """Take ``v`` out of the graph; return its former mate (now exposed) or -1."""
        partner = self.mate[v]
        if partner != -1:
            self._set_mate(partner, -1)
            self._set_mate(v, -1)
        if self._log is not None:
            self._log.append((self.alive, v, True))
        self.alive[v] = False
        self.exposed.discard(v)
        return partner

    # -- trials ----------------------------------------------------------------------------
    def begin(self) -> None:
        """Open a trial: later changes can be undone with :meth:`rollback`."""
        self._log = []

    def commit(self) -> None:
        """Keep the changes made since :meth:`begin`."""
        self._log = None

    def rollback(self) -> None:
        """Undo every change made since :meth:`begin`."""
        log, self._log = self._log, None
        touched = set()
        for arr, i, old in reversed(log):
            arr[i] = old
            touched.add(i)
        for v in touched:
            if self.alive[v] and self.mate[v] == -1:
                self.exposed.add(v)
            else:
                self.exposed.discard(v)

    # -- matching ----------------------------------------------------------------------------
    def unmatched(self) -> int:
        """Number of alive vertices left exposed by the current matching."""
        return len(self.exposed)

    def maximize(self, order=None) -> int:
        """Make the matching maximum: greedy in ``order`` then one search per exposed vertex.

        Args:
            order: vertices in the preferred greedy order (default ``0..n-1``); the greedy
                pass matches each exposed vertex with the first later exposed one it may meet.
        Returns:
            the number of exposed alive vertices afterwards.
        """
        if order is None:
            order = range(self.n)
        order = [v for v in order if self.alive[v]]
        free = [v for v in order if self.mate[v] == -1]
        for i, v in enumerate(free):
            if self.mate[v] != -1:
                continue
            forb = self.forbidden[v]
            for u in free[i + 1:]:
                if self.mate[u] == -1 and u not in forb:
                    self._link(v, u)
                    break
        # Searching once from each exposed vertex suffices: a vertex with no augmenting path
        # never gets one after other augmentations (Edmonds 1965).
        for v in [v for v in order if self.mate[v] == -1]:
            if self.mate[v] == -1 and self.alive[v]:
                self.augment(v)
        return len(self.exposed)

    def repair(self, freed, floor: int = 0) -> int:
        """Make the matching maximum again after :meth:`remove` calls; return exposed count.

        Args:
            freed: the former mates returned by :meth:`remove` (-1 entries ignored).
            floor: stop as soon as at most ``floor`` vertices are exposed (a known lower
                bound, e.g. 0 when a perfect matching is the goal).

        Augmenting paths in the smaller graph must end at a freed vertex, so those are
        searched first; if one of them augments, the old exposed vertices may gain paths and
        are searched once each as well (a failed search stays failed: Edmonds 1965).
        """
        augmented = False
        for x in freed:
            if len(self.exposed) <= floor:
                return len(self.exposed)
            if x != -1 and self.alive[x] and self.mate[x] == -1 and self.augment(x):
                augmented = True
        if augmented:
            for x in [v for v in self.exposed if v not in freed]:
                if len(self.exposed) <= floor:
                    break
                if x in self.exposed:
                    self.augment(x)
        return len(self.exposed)

    def augment(self, root: int) -> bool:
        """Try to augment the matching along a path starting at exposed vertex ``root``.

        Returns True (and applies the augmentation) when an augmenting path exists.
        """
        others = [u for u in self.exposed if u != root]
        if not others:
            return False
        forb = self.forbidden[root]
        for u in others:  # length-1 path
            if u not in forb:
                self._link(root, u)
                return True
        if len(others) <= 4:  # length-3 path root–a=b–u, the common case in a dense graph
            mate = self.mate
            alive = self.alive
            for a in range(self.n):
                if not alive[a] or a in forb:
                    continue
                b = mate[a]
                if b == -1:
                    continue
                fb = self.forbidden[b]
                for u in others:
                    if u not in fb:
                        self._link(root, a)
                        self._link(b, u)
                        return True
        return self._edmonds(root)

    def _edmonds(self, root: int) -> bool:
        """Edmonds' blossom search from ``root`` (BFS, contracting odd cycles by base labels)."""
        n = self.n
        mate = self.mate
        forbidden = self.forbidden
        verts = [v for v in range(n) if self.alive[v]]
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n  # outer (even) vertices
        used[root] = True
        queue = [root]

        def lca(a: int, b: int) -> int:
            seen = set()
            while True:
                a = base[a]
                seen.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in seen:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, blossom: set) -> None:
            while base[v] != b:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        qi = 0
        while qi < len(queue):
            v = queue[qi]
            qi += 1
            fv = forbidden[v]
            for to in verts:
                if to == v or to in fv or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    cur = lca(v, to)
                    blossom: set = set()
                    mark_path(v, cur, to, blossom)
                    mark_path(to, cur, v, blossom)
                    for i in verts:
                        if base[i] in blossom:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        w = to
                        while w != -1:
                            pw = parent[w]
                            ppw = mate[pw]
                            self._link(w, pw)
                            w = ppw
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False


def min_unmatched(vertices, forbidden: list[set[int]], n: int | None = None) -> int:
    """Number of ``vertices`` left exposed by a maximum matching, computed from scratch.

    Args:
        vertices: the vertices taking part (ints), in preferred greedy order.
        forbidden: non-adjacency sets as for :class:`DenseMatcher`.
        n: size of ``forbidden`` (default ``len(forbidden)``).
    """
    vertices = list(vertices)
    m = DenseMatcher(n if n is not None else len(forbidden), forbidden, alive=vertices)
    return m.maximize(vertices)
