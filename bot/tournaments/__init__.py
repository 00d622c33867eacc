"""Community tournaments (Swiss, round robin, final table) played as ordinary tables of the host, with
standings, and OpenSkill ratings per server and game."""
from .models import Entrant, Tournament, TournamentTable, TournamentUpdate, place_points, ranking_points
from .ratings import RatingService
from .service import TournamentService
from .settings import default_seats
from .standings import Standing, compute_standings

__all__ = ["Entrant", "Tournament", "TournamentTable", "TournamentUpdate", "place_points", "ranking_points",
           "RatingService", "TournamentService", "default_seats", "Standing", "compute_standings"]
