"""Determinisers for the strong bot: ``<game>.sample(view, rng)`` returns a full engine state that the
seat's ``view`` could have come from, dealing every card the seat cannot see at random among the places
it could be. They read only the view (never the true state), and give the sampled state a fresh RNG."""
