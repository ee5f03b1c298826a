import * as vscode from "vscode";
import { parseBaseUrl } from "../client/base-url";
import { defaultModelFor } from "../core/api/models";
import { fromServer, type CompletionOutcome } from "../core/completion/types";
import { ApiKeyStore } from "./api-key";
import { SensitiveFileRules } from "./context/sensitive-file-rules";
import { McpInputs } from "./mcp/mcp-inputs";
import { registerMcpCommands } from "./mcp/mcp-commands";
import { McpServers, type McpServerView } from "./mcp/mcp-servers";
import { registerChat, type ChatProbe } from "./chat/register-chat";
import { CustomizationFiles } from "./customization/customization-files";
import { registerEdit } from "./edit/register-edit";
import type { EditProbe } from "./edit/edit-controller";
import { registerNextEdit } from "./next-edit/register-next-edit";
import type { NextEditProbe } from "./next-edit/next-edit-controller";
import { clientCompletionStream } from "./completion/client-stream";
import { registerCompletions } from "./completion/register-completions";
import { ClientFactory } from "./client-factory";
import { registerCommands } from "./commands";
import { registerImageCommands } from "./image/image-commands";
import { registerLanguageModels } from "./language-models/register-language-models";
import { ConnectionMonitor } from "./connection-monitor";
import { registerAutoStart } from "./local-engine/auto-start";
import { LocalServer } from "./local-server";
import { Logger } from "./logger";
import { registerOnboarding, type OnboardingProbe } from "./onboarding/register-onboarding";
import { Settings } from "./settings";
import { StatusBar } from "./status-bar";
import { ChatModelChoice } from "./scm/chat-model-setup";
import { registerScm } from "./scm/register-scm";
import { registerReview, type ReviewProbe } from "./review/register-review";
import { SensitiveConsent, serverName } from "./context/sensitive-consent";
import { registerTerminal, terminalMention } from "./terminal/register-terminal";
import { TerminalHistory, type FinishedCommand } from "./terminal/terminal-history";
import type { LocalServerState } from "../core/local-server/local-server-state";
import type { KeySource, StatusView } from "../core/status/describe-status";

/** What activate() returns: read-only views that the extension's own tests use. */
export interface WispApi {
  statusBar(): StatusView;
  logLines(): readonly string[];
  apiKeySource(): Promise<KeySource>;
  /** The latest completion outcomes, newest last (bounded). */
  completionOutcomes(): readonly CompletionOutcome[];
  /** What the local server this window runs is doing (its pid while it runs). */
  localServer(): LocalServerState;
  /** Resolves once wisp.localServer.autoStart has acted on every change seen so far. */
  autoStartSettled(): Promise<void>;
  /** The chat panel's state. */
  chat: ChatProbe;
  /** The edits in place under way. */
  edit: EditProbe;
  /** The next-edit suggestion shown, if any. */
  nextEdit: NextEditProbe;
  /** The first minute: the chat's setup state, the walkthrough's milestones, the embedded-models notice. */
  onboarding: OnboardingProbe;
  /** MCP servers: their states and what the Wisp MCP output channel says. */
  mcp: { list(): Promise<(McpServerView & { toolNames: string[] })[]>; outputLines(): readonly string[] };
  /** The review's comment threads. */
  review: ReviewProbe;
  /** The last command of the terminal (the latest of any when none is given), as shell integration reported it; the command the terminal runs now, with its output so far. */
  terminal: { latest(terminal?: vscode.Terminal): Promise<Omit<FinishedCommand, "terminal"> | undefined>; runningCommand(terminal: vscode.Terminal): Omit<FinishedCommand, "terminal"> | undefined };
}

/** Small records; bounded for a long session, far above what the tests index by position. */
const keptOutcomes = 10_000;

export async function activate(context: vscode.ExtensionContext): Promise<WispApi> {
  const log = new Logger();
  const settings = new Settings();
  const keys = new ApiKeyStore(context.secrets, settings);
  const clients = new ClientFactory(settings, keys);
  // Ghost text nobody waited for is worthless: a completion whose server sends nothing for this long
  // (headers or the next chunk) fails and says so, instead of holding the pipeline for a minute.
  const completionClient = () => clients.create({ timeoutMs: settings.value.completion.timeoutSeconds * 1000 });
  const connection = new ConnectionMonitor(clients, log);
  const statusBar = new StatusBar(settings, connection);
  const localServer = new LocalServer({ extensionPath: context.extensionPath, storagePath: context.globalStorageUri.fsPath, version: String(context.extension.packageJSON.version) }, settings, keys, log);
  context.subscriptions.push(log, settings, keys, connection, statusBar, localServer);
  const showAvailability = () => statusBar.setLocalServerAvailable(localServer.available);
  showAvailability();
  if (!localServer.available) log.info("no local server in this package (the universal one): Wisp uses the server at wisp.baseUrl");
  context.subscriptions.push(
    localServer.onDidChange((state) => {
      statusBar.setLocalServer(state);
      if (state.kind === "running") void connection.check();
    }),
  );

  // Every key used in this window stays masked: a request to the last server may still be logging.
  const keysUsed = new Set<string>();
  const refreshKey = async () => {
    const { key, source, problem } = await keys.resolve();
    if (key !== undefined) keysUsed.add(key);
    log.setSecrets([...keysUsed]);
    statusBar.setKeySource(source, problem);
    if (problem === undefined) log.info(`API key source: ${source}`);
    else log.warn(`API key: the secret store could not be read (${problem}); ${key === undefined ? "no key is sent" : "WISP_API_KEY is used"}`);
    // Not awaited: activation stays cheap even when the server is slow to answer.
    void connection.check();
  };
  let lastBaseUrl = settings.value.baseUrl;
  context.subscriptions.push(
    registerCommands({ settings, keys, clients, connection, statusBar, log, localServer, memento: context.globalState }),
    keys.onDidChange(() => void refreshKey()),
    settings.onDidChange((s) => {
      showAvailability();
      if (s.baseUrl === lastBaseUrl) return;
      lastBaseUrl = s.baseUrl;
      log.info(`base URL: ${parseBaseUrl(s.baseUrl).display}`);
      // Another server may have another key (keys are kept per server): its source, then the check.
      void refreshKey();
    }),
  );

  // Auto-start is registered last (it acts at once); the setup state asks it whether it has acted.
  let autoStartSettled = () => Promise.resolve();
  const onboarding = registerOnboarding({ context, settings, keys, clients, connection, localServer, log, autoStartSettled: () => autoStartSettled() });
  context.subscriptions.push(onboarding.disposable);

  context.subscriptions.push(registerImageCommands({ settings, clients, log, state: context.globalState, extensionUri: context.extensionUri, onGenerated: () => onboarding.reach("image") }));

  // One reading of wisp.sensitiveFiles and .wispignore for everything that sends file text by itself.
  const sensitive = new SensitiveFileRules();
  context.subscriptions.push(sensitive);
  const outcomes: CompletionOutcome[] = [];
  context.subscriptions.push(
    registerCompletions({
      stream: clientCompletionStream(completionClient),
      settings: () => {
        const model = settings.value.completion.model || defaultModelFor("completion", connection.knownModels) || "";
        return { ...settings.value.completion, model, serverFim: connection.knownModels.find((m) => m.id === model)?.fim === true };
      },
      log,
      onOutcome: (outcome) => {
        outcomes.push(outcome);
        if (outcomes.length > keptOutcomes) outcomes.shift();
        reportOutcome(outcome, statusBar, connection);
        if (outcome.kind === "shown" && fromServer(outcome.source)) onboarding.reach("ghostText");
      },
      onRequest: () => statusBar.beginRequest(),
      isSensitive: (uri) => sensitive.isSensitive(uri),
      // globalStorage is <user data>/User/globalStorage/<extension id>.
      userDataDir: vscode.Uri.joinPath(context.globalStorageUri, "..", ".."),
    }),
  );

  // Prompt files, custom agents and scoped instructions (.github/...), for the chat, the agent and edits.
  const customization = new CustomizationFiles(() => settings.value.chat.userPromptsFolder, log);
  let userPromptsFolder = settings.value.chat.userPromptsFolder;
  context.subscriptions.push(
    customization,
    settings.onDidChange((s) => {
      if (s.chat.userPromptsFolder === userPromptsFolder) return;
      userPromptsFolder = s.chat.userPromptsFolder;
      customization.userFolderChanged();
    }),
  );
  const edit = registerEdit({ settings, clients, log, state: context.globalState, instructions: customization });
  context.subscriptions.push(edit.disposable);
  const nextEdit = registerNextEdit(settings, {
    client: completionClient,
    isSensitive: (uri) => sensitive.isSensitive(uri),
    log,
  });
  context.subscriptions.push(nextEdit.disposable);
  const mcpOutput = new Logger("Wisp MCP");
  const mcp = new McpServers({
    log,
    output: mcpOutput,
    inputs: new McpInputs(context.secrets, (values) => {
      log.setSecrets(values, "mcp");
      mcpOutput.setSecrets(values, "mcp");
    }),
    memento: context.workspaceState,
    version: context.extension.packageJSON.version as string,
  });
  context.subscriptions.push(mcpOutput, mcp, registerMcpCommands(mcp, mcpOutput, log));
  const terminals = new TerminalHistory();
  const consent = new SensitiveConsent(sensitive, () => serverName(settings.value.baseUrl));
  context.subscriptions.push(terminals);
  const chat = registerChat({ context, settings, keys, clients, log, applyAsEdit: edit.apply, sensitive, mcp, terminal: (newId) => terminalMention(terminals, settings, consent, newId), customization, editEnded: edit.ended, onAnswered: (turn) => {
    // An answer, or a task carried out (a refusal or a failure is not trying it).
    if (turn.status === "done" && !turn.agent) onboarding.reach("chat");
    if (turn.status === "done" && turn.agent?.end === "done") onboarding.reach("agent");
  } });
  context.subscriptions.push(chat.disposable);
  // Source control, review and the terminal: one-off requests to the chat model, reported in the chat.
  const models = new ChatModelChoice(settings, clients, log);
  context.subscriptions.push(keys.onDidChange(() => models.invalidate()), settings.onDidChange(() => models.invalidate()));
  context.subscriptions.push(registerScm({ settings, clients, log, models, isSensitive: (uri) => sensitive.isSensitive(uri) }));
  const review = registerReview({ settings, clients, log, models, consent, report: chat.hooks.report });
  context.subscriptions.push(review.disposable, registerTerminal({ settings, log, history: terminals, chat: () => chat.hooks, consent }));
  context.subscriptions.push(registerLanguageModels({ settings, keys, clients, connection, log }));

  log.info(`Wisp ${context.extension.packageJSON.version as string} activated; base URL ${parseBaseUrl(settings.value.baseUrl).display}`);
  await refreshKey();
  const autoStart = registerAutoStart({ settings, connection, localServer, log });
  context.subscriptions.push(autoStart);
  autoStartSettled = () => autoStart.settled();
  // Not awaited: the walkthrough opens beside whatever the window restores.
  void onboarding.start();

  return {
    statusBar: () => statusBar.current,
    logLines: () => log.lines(),
    apiKeySource: async () => (await keys.resolve()).source,
    completionOutcomes: () => outcomes,
    localServer: () => localServer.state,
    autoStartSettled: () => autoStart.settled(),
    chat: chat.probe,
    edit: edit.probe,
    nextEdit: nextEdit.probe,
    onboarding: onboarding.probe,
    mcp: {
      list: async () => (await mcp.list()).map((view) => ({ ...view, toolNames: mcp.connection(view.entry.name)?.tools.map((t) => t.name) ?? [] })),
      outputLines: () => mcpOutput.lines(),
    },
    review: review.probe,
    terminal: {
      latest: async (terminal) => withoutTerminal(await terminals.latest(terminal)),
      runningCommand: (terminal) => withoutTerminal(terminals.runningCommand(terminal)),
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/** Shown suggestions give the latency, errors the status; debounces and cancels are routine. */
function reportOutcome(outcome: CompletionOutcome, statusBar: StatusBar, connection: ConnectionMonitor): void {
  statusBar.countOutcome(outcome.kind === "shown" ? `shown (${outcome.source})` : outcome.kind);
  if (outcome.kind === "shown" && fromServer(outcome.source)) {
    statusBar.reportSuccess(outcome.latencyMs);
    connection.reportSuccess();
  }
  if (outcome.kind !== "error") return;
  // Without a working connection no model list is known: the connection state says why.
  if (outcome.errorKind === "no-model" && connection.current.kind !== "ready") return;
  if (!connection.report(outcome.errorKind, outcome.message)) statusBar.reportError(outcome.message);
}

/** A terminal's command for the tests' probe, without the terminal object. */
function withoutTerminal(found: FinishedCommand | undefined): Omit<FinishedCommand, "terminal"> | undefined {
  if (found === undefined) return undefined;
  const { terminal: _, ...command } = found;
  return command;
}
