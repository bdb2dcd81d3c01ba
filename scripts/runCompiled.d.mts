export declare function runCompiled(entry: string | URL, script: string): Promise<void>;
