// The engine's public surface. It grows with the algorithm language, the kernel and option math
// (issues "Algorithm language and the backtest engine" and "Market model, option math").
// Until then it re-exports nothing, so nothing can depend on an engine API that does not exist.
export {};
