// What deploy/docker/Dockerfile must keep true (no Docker engine needed): multi-stage,
// one SERVICE build argument accepting exactly the bundler's services, a final stage that
// holds only the bundle and its production packages, runs as a numeric non-root user,
// carries no secrets and stops on SIGTERM.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isSecretVariableName } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/bundle-service.js";
import { type Instruction, caseAlternatives, parseDockerfile } from "../src/dockerfile.js";
import { SERVICE_NAMES } from "../src/services.js";

const dockerfile = parseDockerfile(readFileSync(path.join(REPO_ROOT, "deploy/docker/Dockerfile"), "utf8"));
const dockerignore = readFileSync(path.join(REPO_ROOT, ".dockerignore"), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const final = dockerfile.stages.at(-1)!;
const all = (keyword: string, instructions: Instruction[]) =>
  instructions.filter((instruction) => instruction.keyword === keyword);
const everywhere = [...dockerfile.preamble, ...dockerfile.stages.flatMap((stage) => stage.instructions)];

describe("deploy/docker/Dockerfile", () => {
  it("is multi-stage, every stage named, the service chosen by ARG SERVICE", () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of dockerfile.stages) expect(stage.name).toBeTruthy();
    for (const stage of dockerfile.stages.slice(0, -1)) {
      expect(all("ARG", stage.instructions).map((i) => i.args)).toContain("SERVICE");
    }
  });

  it("accepts exactly the services the bundler builds", () => {
    const build = dockerfile.stages[0]!;
    expect(caseAlternatives(build, "SERVICE").sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it("installs production dependencies only", () => {
    const installs = dockerfile.stages
      .flatMap((stage) => all("RUN", stage.instructions))
      .filter((run) => /\bnpm (install|ci)\b/.test(run.args) && !/--out/.test(run.args));
    const production = installs.filter((run) => run.args.includes("--omit=dev"));
    expect(production.length).toBe(1);
    expect(production[0]!.args).toContain("--ignore-scripts");
  });

  it("runs the final stage as a numeric non-root user", () => {
    const users = all("USER", final.instructions);
    expect(users.length).toBeGreaterThan(0);
    const [user, group] = users.at(-1)!.args.split(":");
    expect(user).toMatch(/^\d+$/);
    expect(Number(user)).toBeGreaterThan(0);
    if (group !== undefined) expect(Number(group)).toBeGreaterThan(0);
  });

  it("copies only the one bundle and its installed packages into the final stage", () => {
    const copies = [...all("COPY", final.instructions), ...all("ADD", final.instructions)];
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      expect(copy.keyword).toBe("COPY");
      const from = /--from=(\S+)/.exec(copy.args)?.[1];
      const [source] = copy.args
        .split(/\s+/)
        .filter((word) => !word.startsWith("--"))
        .slice(0, -1);
      if (from === "install") expect(source).toBe("/app/node_modules");
      else {
        expect(from).toBe("build");
        expect(source).toBe("/bundle/${SERVICE}/");
      }
    }
  });

  it("carries no secrets: no ENV or ARG named like one, no secret-looking values", () => {
    const names = [
      ...all("ARG", everywhere).map((arg) => arg.args.split("=")[0]!),
      ...all("ENV", everywhere).flatMap((env) =>
        env.args.includes("=")
          ? env.args.split(/\s+/).flatMap((word) => /^([A-Za-z_]\w*)=/.exec(word)?.[1] ?? [])
          : [env.args.split(/\s+/)[0]!],
      ),
    ];
    expect(names).toContain("SERVICE");
    expect(names.filter(isSecretVariableName)).toEqual([]);
    const text = everywhere.map((instruction) => instruction.args).join("\n");
    expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY|postgres:\/\/[^@\s]*:[^@\s]*@|--secret/);
  });

  it("stops on SIGTERM with node as PID 1 running the bundle (no shell in between)", () => {
    expect(all("STOPSIGNAL", final.instructions).map((i) => i.args)).toEqual(["SIGTERM"]);
    const entrypoint = all("ENTRYPOINT", final.instructions).at(-1)!;
    const argv = JSON.parse(entrypoint.args) as string[];
    expect(argv[0]).toMatch(/node$/);
    expect(argv[1]).toBe("/app/main.js");
    expect(all("EXPOSE", final.instructions).length).toBe(1);
  });
});

describe(".dockerignore", () => {
  it("allows only the workspace sources into the build context", () => {
    expect(dockerignore[0]).toBe("*");
    for (const excluded of ["**/node_modules", "**/dist", "**/.deploy-local", "**/.env", "**/.env.*"]) {
      expect(dockerignore).toContain(excluded);
    }
    const allowed = dockerignore.filter((line) => line.startsWith("!")).map((line) => line.slice(1));
    expect(allowed).toEqual(
      expect.arrayContaining(["package.json", "package-lock.json", "packages", "services", "gateway"]),
    );
    expect(allowed.filter((entry) => /^\.(git|deploy-local|petri|env)/.test(entry))).toEqual([]);
  });
});
