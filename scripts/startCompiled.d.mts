export declare function startCompiled(options: { entry: string; script: string; buildWeb?: boolean }): Promise<void>;
