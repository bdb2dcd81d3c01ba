# Shortcuts; the README's two commands are all a developer needs.
.PHONY: dev test build bench lint

dev:
	npm start

test:
	npm test

build:
	npm run build

bench:
	npm run bench

lint:
	npm run typecheck
