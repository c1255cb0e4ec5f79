"""Layer 5, organisers' tools beside the chat: table cards, the projector scoreboard."""
