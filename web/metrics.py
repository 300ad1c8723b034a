"""The board server's Prometheus figures (`/metrics`): games, moves, click-to-table latency, queues, workers, and
open board connections. Each board server has its own registry, so several bots in one process (tests) never
collide."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from db.models import GameStatus

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.games = Gauge("kd_games", "Games by status (lobbies and games in play)", ["status"], registry=registry)
        self.moves = Counter("kd_moves", "Moves saved, by where they came from", ["source"], registry=registry)
        self.game_writes = Counter("kd_game_writes", "Writes that changed a game (any source)", registry=registry)
        self.refusals = Counter("kd_board_refusals", "Board actions refused (the reason shown)", registry=registry)
        self.click_to_table = Histogram(
            "kd_click_to_table_seconds",
            "From a board action's arrival to its move saved and the table posted (or kept)",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.push = Histogram(
            "kd_board_push_seconds",
            "From a game's change to its new state written to an open board",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.board_reads = Counter(
            "kd_board_snapshots",
            "A game's new state taken for its open boards: handed over by this process's commit path, or read back "
            "from the store",
            ["source"],
            registry=registry,
        )
        self.connections = Gauge("kd_board_connections", "Open board connections (live updates)", registry=registry)
        self.ai_queued = Gauge("kd_ai_queued", "Computer decisions waiting for a worker", registry=registry)
        self.ai_running = Gauge("kd_ai_running", "Computer decisions being computed", registry=registry)
        self.ai_workers = Gauge("kd_ai_workers", "Live computer-player worker processes", registry=registry)
        self.picture_workers = Gauge("kd_picture_workers", "Picture worker processes configured", registry=registry)
        self.computer_chains = Gauge(
            "kd_computer_chains", "Games whose computer players are at work", registry=registry
        )

    async def collect(self, service, hub) -> bytes:
        """Read the figures that are states (not events) now, then write them all in Prometheus's text format."""
        for status in (GameStatus.LOBBY, GameStatus.PLAYING):
            games = await service.store.list_games(statuses={status}, limit=100_000)
            self.games.labels(status=str(status)).set(len(games))
        self.connections.set(hub.connections)
        pool = service.ai_pool
        self.ai_queued.set(pool.queued if pool is not None else 0)
        self.ai_running.set(pool.running if pool is not None else 0)
        self.ai_workers.set(len(pool.worker_pids()) if pool is not None else 0)
        from cogs import pictures

        self.picture_workers.set(pictures.current().workers)
        self.computer_chains.set(len(service.computers.chains))
        return generate_latest(self.registry)
