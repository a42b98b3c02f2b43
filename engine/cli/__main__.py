from engine.cli import console

console()
